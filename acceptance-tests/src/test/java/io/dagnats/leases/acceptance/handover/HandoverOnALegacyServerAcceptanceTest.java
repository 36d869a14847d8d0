package io.dagnats.leases.acceptance.handover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/** On a server older than 2.11, handover and candidates answer unsupported like every subject, bad input too. */
class HandoverOnALegacyServerAcceptanceTest {

    @Test
    void handoverAndCandidatesAnswerUnsupportedOnALegacyServer() throws Exception {
        try (ServiceFixture service = ServiceFixture.with().server(NatsServerProcess::legacy).start()) {
            for (String[] call : List.of(
                    new String[] {"handover", "{\"key\":\"k\",\"holder\":\"h\",\"revision\":1,\"to_holder\":\"h2\","
                            + "\"to_incarnation\":\"i2\"}"},
                    new String[] {"handover", "not even json"},
                    new String[] {"candidates", "{\"key\":\"k\"}"})) {

                JsonNode reply = service.client.call(call[0], call[1]);

                assertEquals("unsupported", reply.path("kind").asText(), call[0] + ": " + reply);
                assertTrue(reply.path("error").asText().contains("2.11"), reply.toString());
            }
        }
    }
}
