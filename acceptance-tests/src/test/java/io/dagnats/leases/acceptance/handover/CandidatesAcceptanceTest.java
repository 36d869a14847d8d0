package io.dagnats.leases.acceptance.handover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Dispatcher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code api.leases.candidates} against a real nats-server and dagnats (ADR-042): the answers of
 * the live subscriptions within the window, sorted by holder, garbage and other keys' answers
 * dropped; and a successor that never answers is {@code no_successor} once its second is up.
 */
class CandidatesAcceptanceTest extends SharedServiceTest {

    @Test
    void candidatesListsTheAnsweringSubscriptionsSortedAndDropsGarbage() throws Exception {
        Dispatcher noise = client.connection().createDispatcher();
        try (PlayedCandidate zed = new PlayedCandidate(client.connection(), "gathered", "zed", "iz");
                PlayedCandidate amy = new PlayedCandidate(client.connection(), "gathered", "amy", "ia")) {
            noise.subscribe("dagnats.lease.candidates.gathered", request -> client.connection().publish(
                    request.getReplyTo(), "{\"not\":\"a candidate\"".getBytes(StandardCharsets.UTF_8)));
            noise.subscribe("dagnats.lease.candidates.gathered", request -> client.connection().publish(
                    request.getReplyTo(), new PlayedAnswer("elsewhere", "bob").bytes()));
            client.connection().flush(Duration.ofSeconds(5));

            JsonNode reply = client.call("candidates", WireClient.object().put("key", "gathered").put("timeout_ms", 500));

            assertEquals("gathered", reply.path("key").asText(), reply.toString());
            JsonNode candidates = reply.path("candidates");
            assertEquals(2, candidates.size(), reply.toString());
            assertEquals(WireClient.json(amy.answer()), candidates.get(0));
            assertEquals(WireClient.json(zed.answer()), candidates.get(1));
        } finally {
            client.connection().closeDispatcher(noise);
        }
    }

    @Test
    void aKeyNobodyWaitsForHasNoCandidates() {
        JsonNode reply = client.call("candidates", WireClient.object().put("key", "lonely"));

        assertEquals(WireClient.json("{\"key\":\"lonely\",\"candidates\":[]}"), reply);
    }

    @Test
    void aCandidatesWindowOutsideItsBoundsIsInvalid() {
        JsonNode reply = client.call("candidates", WireClient.object().put("key", "k").put("timeout_ms", 5001));

        assertEquals("invalid", reply.path("kind").asText(), reply.toString());
    }

    @Test
    void aSuccessorThatDoesNotAnswerInTimeIsNoSuccessorAndTheOwnerKeepsTheLease() throws Exception {
        JsonNode acquired = client.call("acquire", WireClient.object().put("key", "silent").put("holder", "h1")
                .put("incarnation", "i1").put("ttl_ms", 30_000));
        long revision = acquired.path("revision").asLong();
        Dispatcher silent = client.connection().createDispatcher();
        try {
            silent.subscribe("dagnats.lease.candidate.h2.silent", request -> { });
            client.connection().flush(Duration.ofSeconds(5));

            JsonNode reply = client.call("handover", WireClient.object().put("key", "silent").put("holder", "h1")
                    .put("incarnation", "i1").put("revision", revision).put("to_holder", "h2")
                    .put("to_incarnation", "i2"));

            assertEquals("no_successor", reply.path("kind").asText(), reply.toString());
            assertTrue(reply.path("error").asText().contains("did not answer"), reply.toString());
        } finally {
            client.connection().closeDispatcher(silent);
        }
        assertEquals(revision, client.owner("silent").path("revision").asLong(), "nothing was written");
    }

    /** A well-formed answer for another key. */
    private record PlayedAnswer(String key, String holder) {
        byte[] bytes() {
            return WireClient.object().put("key", key).put("holder", holder).put("incarnation", "i")
                    .put("priority", 0).put("version", "1").put("waited_ms", 0).put("state", "waiting").toString()
                    .getBytes(StandardCharsets.UTF_8);
        }
    }
}
