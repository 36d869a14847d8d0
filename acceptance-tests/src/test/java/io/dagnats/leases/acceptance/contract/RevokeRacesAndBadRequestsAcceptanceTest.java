package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Message;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Attacks on revoke and on the micro responder, from the review of issue 11: a revoke with a
 * revision ends that lease or nothing when a renew races it, every bad field name is answered with
 * safe error headers, and a bad request cannot hold up the stop.
 */
class RevokeRacesAndBadRequestsAcceptanceTest {

    // ---------------------------------------------------------------- revoke

    /**
     * Property: revoke with a revision ends that lease or nothing, also when a renew races it
     * (the compare-and-set retry path re-decides with the precondition). Attack: 150 rounds of
     * a renew and a revoke sent together on the same fence; check each pair of answers
     * against the one order the store chose. Passes on 4449e9b.
     */
    @Test
    void revokeWithARevisionEndsThatLeaseOrNothingWhenARenewRacesIt() throws Exception {
        try (ServiceFixture service = ServiceFixture.start();
                WireClient operator = new WireClient(service.nats.url())) {
            WireClient holder = service.client;
            List<String> broken = new ArrayList<>();
            int revokedFirst = 0;
            int renewedFirst = 0;
            for (int round = 0; round < 150; round++) {
                String key = "race-" + round;
                long fence = holder.acquire(key, "h", 60_000).path("revision").asLong();
                CompletableFuture<JsonNode> renew = holder.callAsync("renew",
                        WireClient.object().put("key", key).put("holder", "h").put("revision", fence).toString());
                CompletableFuture<JsonNode> revoke = operator.callAsync("revoke",
                        WireClient.object().put("key", key).put("reason", "race").put("revision", fence).toString());
                JsonNode renewed = renew.get(10, TimeUnit.SECONDS);
                JsonNode revoked = revoke.get(10, TimeUnit.SECONDS);
                JsonNode owner = holder.owner(key);
                if (revoked.path("revoked").asBoolean()) {
                    revokedFirst++;
                    boolean ok = revoked.path("revoked_revision").asLong() == fence
                            && "lost".equals(renewed.path("kind").asText()) && !owner.path("held").asBoolean();
                    if (!ok) {
                        broken.add(key + ": revoke " + revoked + " renew " + renewed + " owner " + owner);
                    }
                } else {
                    renewedFirst++;
                    long newFence = renewed.path("revision").asLong();
                    boolean ok = renewed.path("granted").asBoolean() && newFence > fence
                            && revoked.path("held").asBoolean() && revoked.path("revision").asLong() == newFence
                            && owner.path("revision").asLong() == newFence;
                    if (!ok) {
                        broken.add(key + ": revoke " + revoked + " renew " + renewed + " owner " + owner);
                    }
                }
            }
            assertTrue(broken.isEmpty(), broken.toString());
            System.out.println("revoke/renew race: revoke won " + revokedFirst + ", renew won " + renewedFirst);
        }
    }

    // ---------------------------------------------------------------- micro responder

    /**
     * Property: every request is answered, and an error reply's micro headers are one
     * ASCII line each whatever the request held. Attack: unknown field names with CR/LF, a
     * would-be header, non-ASCII, and one whose 40-character cut in the error sentence
     * falls inside a surrogate pair (39 ASCII letters and an emoji: valid UTF-8 JSON).
     *
     * <p>Passes on 4449e9b: ServiceErrors.headerValue turns every non-printable or non-ASCII
     * character into '?', and Jackson writes the lone surrogate without failing.
     */
    @Test
    void everyBadFieldNameIsAnsweredWithSafeErrorHeaders() throws Exception {
        try (ServiceFixture service = ServiceFixture.start()) {
            List<String> bodies = List.of(
                    "{\"key\":\"k\",\"a\\r\\nNats-Service-Error-Code: 200\":1}",
                    "{\"key\":\"k\",\"\u043a\u043b\u044e\u0447\":1}",
                    "{\"key\":\"k\",\"" + "a".repeat(39) + "\uD83D\uDE00\":1}");
            List<String> unanswered = new ArrayList<>();
            for (String body : bodies) {
                Message reply;
                try {
                    reply = service.client.connection().request("api.leases.owner",
                            body.getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(3));
                } catch (RuntimeException failed) {
                    reply = null;
                }
                if (reply == null) {
                    unanswered.add(body);
                    continue;
                }
                JsonNode json = WireClient.parse(reply);
                assertEquals("invalid", json.path("kind").asText(), json.toString());
                assertNotNull(reply.getHeaders(), "no micro error headers");
                assertEquals(List.of("400"), reply.getHeaders().get("Nats-Service-Error-Code"));
                String sentence = reply.getHeaders().getFirst("Nats-Service-Error");
                assertTrue(sentence.chars().allMatch(c -> c >= 0x20 && c <= 0x7e), sentence);
                assertEquals(2, reply.getHeaders().keySet().size(), reply.getHeaders().keySet().toString());
            }
            assertTrue(unanswered.isEmpty(), "requests never answered: " + unanswered);
        }
    }

    /**
     * Property: a bad request leaves nothing counted in flight, so a clean stop returns well
     * within the drain bound. Attack: the surrogate-splitting field name above, then a stop
     * (had building its error reply thrown, the request would stay in flight and the stop
     * would wait the whole 10 s drain timeout). Passes on 4449e9b.
     */
    @Test
    void aBadRequestCannotHoldUpTheStop() throws Exception {
        try (ServiceFixture service = ServiceFixture.start()) {
            WireClient caller = service.client;
            String body = "{\"key\":\"k\",\"" + "a".repeat(39) + "\uD83D\uDE00\":1}";
            try {
                caller.connection().request("api.leases.owner", body.getBytes(StandardCharsets.UTF_8),
                        Duration.ofSeconds(2));
            } catch (RuntimeException ignored) {
                // answered or not: the stop is what this test measures
            }
            long started = System.nanoTime();
            service.stopDagnats();
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(millis < 3_000, "the stop took " + millis + " ms with nothing really in flight");
        }
    }
}
