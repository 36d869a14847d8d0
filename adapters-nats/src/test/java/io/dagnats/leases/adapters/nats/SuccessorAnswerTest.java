package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.application.SuccessorCheck;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HandoverCheck;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Only a waiting candidate answer naming exactly the key, holder and incarnation asked for is a yes (ADR-042). */
class SuccessorAnswerTest {

    private static final LeaseKey KEY = new LeaseKey("orders");
    private static final Claimant ASKED = Claimant.of(new HolderId("h2"), new Incarnation("i2"));
    private static final HandoverCheck CHECK = new HandoverCheck("c1");

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            the one asked, waiting                | orders | h2 | i2 | waiting | true
            another incarnation                   | orders | h2 | i3 | waiting | false
            the owner, not waiting                | orders | h2 | i2 | owner   | false
            another key                           | other  | h2 | i2 | waiting | false
            another holder                        | orders | h3 | i2 | waiting | false
            """)
    void onlyTheOneAskedWaitingIsAYes(String what, String key, String holder, String incarnation, String state,
            boolean yes) {
        String body = "{\"key\":\"" + key + "\",\"holder\":\"" + holder + "\",\"incarnation\":\"" + incarnation
                + "\",\"priority\":0,\"version\":\"1\",\"waited_ms\":5,\"state\":\"" + state + "\"}";

        SuccessorCheck.Reply reply = NatsSuccessorCheck.judge(KEY, ASKED, message(body, null), CHECK, SuccessorCheck.Grant.NONE);

        assertEquals(yes, reply instanceof SuccessorCheck.Reply.Waiting, reply.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            an empty body      | ''
            garbage            | not json
            a missing field    | {"key":"orders","holder":"h2","incarnation":"i2","state":"waiting"}
            """)
    void whatIsNoCandidateAnswerIsANo(String what, String body) {
        assertInstanceOf(SuccessorCheck.Reply.NotWaiting.class, NatsSuccessorCheck.judge(KEY, ASKED, message(body, null), CHECK, SuccessorCheck.Grant.NONE));
    }

    @ParameterizedTest(name = "a reject with body {0}")
    @CsvSource({"''", "'{\"key\":\"orders\",\"holder\":\"h2\",\"incarnation\":\"i2\",\"priority\":0,\"version\":\"1\",\"waited_ms\":5,\"state\":\"waiting\"}'"})
    void aRejectIsANoWhateverTheBody(String body) {
        Headers reject = new Headers().put(LeaseHeaders.REJECT, LeaseHeaders.REJECT_STALE);

        assertInstanceOf(SuccessorCheck.Reply.NotWaiting.class, NatsSuccessorCheck.judge(KEY, ASKED, message(body, reject), CHECK, SuccessorCheck.Grant.NONE));
    }

    private static NatsMessage message(String body, Headers headers) {
        return NatsMessage.builder().subject("_INBOX.x").headers(headers)
                .data(body.getBytes(StandardCharsets.UTF_8)).build();
    }
}
