package io.dagnats.leases.holder.internal.candidacy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.Candidate;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A candidate's answer reads back as written; what is not one for the key is dropped. */
class CandidateAnswerTest {

    private static final LeaseKey KEY = new LeaseKey("k");

    @Test
    void anAnswerReadsBackAsWritten() {
        Candidate candidate = new Candidate(new HolderId("h"), new Incarnation("i"), 3, "1.2", Duration.ofMillis(1500),
                false);

        assertEquals(Optional.of(candidate), CandidateAnswer.read(KEY, CandidateAnswer.write(KEY, candidate)));
    }

    @Test
    void whatIsNoCandidateOfTheKeyIsDropped() {
        for (String body : new String[] {"", "[]", "{\"key\":\"other\",\"holder\":\"h\",\"incarnation\":\"i\","
                + "\"priority\":0,\"version\":\"1\",\"waited_ms\":1,\"state\":\"waiting\"}",
                "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"i\",\"priority\":0,\"version\":\"1\","
                        + "\"waited_ms\":-1,\"state\":\"waiting\"}",
                "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"i\",\"priority\":0,\"version\":\"1\","
                        + "\"waited_ms\":1,\"state\":\"asleep\"}", "{not json"}) {
            assertEquals(Optional.empty(), CandidateAnswer.read(KEY, body.getBytes(StandardCharsets.UTF_8)), body);
        }
    }
}
