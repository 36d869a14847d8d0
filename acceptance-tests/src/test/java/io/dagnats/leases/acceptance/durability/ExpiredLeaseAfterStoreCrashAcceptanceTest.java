package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.JetStreamApiException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Expired means expired, even when the store forgets it expired a lease: nats-server writes no
 * tombstone for a TTL expiry, so a store recovered after a crash can bring an expired message back,
 * and nothing would expire it again (nats-server#6781). The service must answer such a lease as free
 * and grant the key, judged on the server's clock.
 */
class ExpiredLeaseAfterStoreCrashAcceptanceTest {

    private static final int NO_MESSAGE_FOUND = 10037;

    @Test
    void aLeaseThatExpiredBeforeTheStoreCrashedIsFreeAfterTheRecovery() throws Exception {
        try (ServiceFixture service = ServiceFixture.with().environment("DAGNATS_MARKER_TTL_SECONDS", "1").start()) {
            NatsServerProcess nats = service.nats;
            WireClient client = service.client;
            // A live lease in the same store, as in any bucket in use.
            assertTrue(client.acquire("k0", "h0", 600_000).path("granted").asBoolean());
            long h1s = client.acquire("k1", "h1", 1_000).path("revision").asLong();
            Polling.until(Duration.ofSeconds(15), "k1 to expire and its marker to expire too",
                    () -> !client.owner("k1").path("held").asBoolean(true) && !stored(client, "k1"),
                    gone -> gone);

            nats.stop();
            nats.startAgain();
            Polling.until(Duration.ofSeconds(30), "h2's acquire of another key after the restart",
                    () -> answer(() -> client.acquire("k2", "h2", 600_000)), answer -> answer.path("granted").asBoolean());
            nats.kill();
            nats.startAgain();

            // The service remembers h1's lease from its acquire: no renew or release may be proposed from it.
            JsonNode renewed = Polling.until(Duration.ofSeconds(30), "h1's renew to be answered after the crash",
                    () -> answer(() -> client.renew("k1", "h1", h1s)),
                    answer -> !Set.of("unavailable", NO_ANSWER).contains(answer.path("kind").asText()));
            assertEquals("lost", renewed.path("kind").asText(), "h1's lease expired long ago: " + renewed);
            JsonNode released = client.release("k1", "h1", h1s);
            assertEquals("lost", released.path("kind").asText(), "h1's lease expired long ago: " + released);
            JsonNode owner = client.owner("k1");
            assertFalse(owner.path("held").asBoolean(), "k1 expired long ago: " + owner);
            JsonNode h3s = Polling.until(Duration.ofSeconds(2), "h3's acquire of k1 to be granted",
                    () -> client.acquire("k1", "h3", 10_000), answer -> answer.path("granted").asBoolean());
            assertEquals("h3", h3s.path("holder").asText(), h3s.toString());
            assertTrue(client.owner("k0").path("held").asBoolean(), "h0's live lease must survive");
        }
    }

    private static final String NO_ANSWER = "no answer";

    /** The reply, or {@code {"kind": "no answer"}} while the restarted server has no dagnats (or no connection) yet. */
    private static JsonNode answer(Supplier<JsonNode> call) {
        try {
            return call.get();
        } catch (CompletionException | CancellationException notYet) {
            return WireClient.object().put("kind", NO_ANSWER);
        }
    }

    /** Whether the key has any message left in the stream (a lease, a tombstone or a marker). */
    private static boolean stored(WireClient client, String key) {
        try {
            client.connection().jetStreamManagement().getLastMessage("KV_leases", "$KV.leases." + key);
            return true;
        } catch (JetStreamApiException missing) {
            if (missing.getApiErrorCode() == NO_MESSAGE_FOUND) {
                return false;
            }
            throw new IllegalStateException(missing);
        } catch (Exception notNow) {
            return true;
        }
    }
}
