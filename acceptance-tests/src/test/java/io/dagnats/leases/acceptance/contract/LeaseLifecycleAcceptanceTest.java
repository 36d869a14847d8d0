package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** acquire, renew, release and owner against a real nats-server, through the wire only. */
class LeaseLifecycleAcceptanceTest extends SharedServiceTest {


    private static String key() {
        return "k-" + UUID.randomUUID();
    }

    @Test
    void acquireOfAFreeKeyIsGranted() {
        String key = key();

        JsonNode reply = client.acquire(key, "notify-7f3a", 15_000);

        assertTrue(reply.path("granted").asBoolean(), reply.toString());
        assertTrue(reply.path("held").asBoolean());
        assertEquals(key, reply.path("key").asText());
        assertEquals("notify-7f3a", reply.path("holder").asText());
        assertTrue(reply.path("revision").asLong() >= 1);
        assertEquals(15_000, reply.path("ttl_ms").asLong());
        Instant acquiredAt = Instant.parse(reply.path("acquired_at").asText());
        Instant expiresAt = Instant.parse(reply.path("expires_at").asText());
        assertEquals(Duration.ofSeconds(15), Duration.between(acquiredAt, expiresAt));
        assertTrue(reply.path("acquired_at").asText().endsWith("Z"));
    }

    @Test
    void acquireByCurrentHolderIsIdempotentAndDoesNotExtendTtl() throws Exception {
        String key = key();
        JsonNode first = client.acquire(key, "a", 15_000);
        Polling.until(Duration.ofSeconds(5), "the clock to move past the grant",
                Instant::now, now -> now.isAfter(Instant.parse(first.path("acquired_at").asText()).plusMillis(20)));

        JsonNode again = client.acquire(key, "a", 60_000);

        assertEquals(first, again);
    }

    @Test
    void contendedAcquireIsANormalAnswerNamingTheOwner() {
        String key = key();
        JsonNode granted = client.acquire(key, "a", 15_000);

        JsonNode other = client.acquire(key, "b", 15_000);

        assertFalse(other.path("granted").asBoolean(), other.toString());
        assertTrue(other.path("held").asBoolean());
        assertEquals("a", other.path("holder").asText());
        assertEquals(granted.path("revision"), other.path("revision"));
        assertTrue(other.path("error").isMissingNode());
    }

    @Test
    void ownerOfAHeldKeyIsTheLeaseViewWithoutGranted() {
        String key = key();
        JsonNode granted = client.acquire(key, "a", 15_000);

        JsonNode owner = client.owner(key);

        assertTrue(owner.path("granted").isMissingNode(), owner.toString());
        assertTrue(owner.path("held").asBoolean());
        for (String field : new String[] {"key", "holder", "revision", "acquired_at", "expires_at", "ttl_ms"}) {
            assertEquals(granted.path(field), owner.path(field), field);
        }
    }

    @Test
    void ownerOfAFreeKeyIsHeldFalse() {
        String key = key();

        JsonNode owner = client.owner(key);

        assertEquals(WireClient.object().put("held", false).put("key", key), owner);
    }

    @Test
    void renewRaisesTheFenceAndKeepsAcquiredAt() {
        String key = key();
        JsonNode granted = client.acquire(key, "a", 15_000);

        JsonNode renewed = client.renew(key, "a", granted.path("revision").asLong());

        assertTrue(renewed.path("granted").asBoolean(), renewed.toString());
        assertTrue(renewed.path("revision").asLong() > granted.path("revision").asLong());
        assertEquals(granted.path("acquired_at"), renewed.path("acquired_at"));
        assertEquals(15_000, renewed.path("ttl_ms").asLong());
        assertEquals(renewed.path("revision"), client.owner(key).path("revision"));
    }

    @Test
    void renewWithTtlChangesItAndWithoutTtlKeepsIt() {
        String key = key();
        JsonNode granted = client.acquire(key, "a", 15_000);
        JsonNode longer = client.call("renew", WireClient.object().put("key", key).put("holder", "a")
                .put("revision", granted.path("revision").asLong()).put("ttl_ms", 30_000));
        assertEquals(30_000, longer.path("ttl_ms").asLong(), longer.toString());

        JsonNode kept = client.renew(key, "a", longer.path("revision").asLong());

        assertEquals(30_000, kept.path("ttl_ms").asLong(), kept.toString());
        Instant written = Instant.parse(kept.path("expires_at").asText()).minusSeconds(30);
        assertTrue(!written.isBefore(Instant.parse(longer.path("expires_at").asText()).minusSeconds(30)));
    }

    @Test
    void staleOrForeignRenewAndReleaseAreLostAndChangeNothing() {
        String key = key();
        long first = client.acquire(key, "a", 15_000).path("revision").asLong();
        long current = client.renew(key, "a", first).path("revision").asLong();

        assertLost(client.renew(key, "a", first));
        assertLost(client.renew(key, "b", current));
        assertLost(client.release(key, "a", first));
        assertLost(client.release(key, "b", current));
        assertLost(client.renew(key, "a", current + 1000));

        JsonNode owner = client.owner(key);
        assertEquals("a", owner.path("holder").asText());
        assertEquals(current, owner.path("revision").asLong());
    }

    @Test
    void renewAndReleaseOfAKeyNobodyHoldsAreLost() {
        String key = key();
        assertLost(client.renew(key, "a", 1));
        assertLost(client.release(key, "a", 1));
    }

    @Test
    void releaseThenAcquireByAnotherHolderGetsAHigherFence() {
        String key = key();
        long alices = client.acquire(key, "a", 15_000).path("revision").asLong();

        JsonNode released = client.release(key, "a", alices);
        assertTrue(released.path("released").asBoolean(), released.toString());
        assertEquals(key, released.path("key").asText());
        assertEquals("a", released.path("holder").asText());
        assertTrue(released.path("revision").asLong() > alices);
        assertFalse(client.owner(key).path("held").asBoolean());

        JsonNode bobs = client.acquire(key, "b", 15_000);
        assertTrue(bobs.path("granted").asBoolean(), bobs.toString());
        assertTrue(bobs.path("revision").asLong() > released.path("revision").asLong());
        assertLost(client.release(key, "a", alices));
    }

    @Test
    void theServersTtlFreesTheKeyAfterWhichRenewAndReleaseAreLost() {
        String key = key();
        long revision = client.acquire(key, "a", 1_000).path("revision").asLong();

        Polling.until(Duration.ofSeconds(10), "the server to expire " + key,
                () -> client.owner(key), owner -> !owner.path("held").asBoolean());

        assertLost(client.renew(key, "a", revision));
        assertLost(client.release(key, "a", revision));
        JsonNode next = client.acquire(key, "b", 15_000);
        assertTrue(next.path("granted").asBoolean(), next.toString());
        assertTrue(next.path("revision").asLong() > revision);
    }

    private static void assertLost(JsonNode reply) {
        assertEquals("lost", reply.path("kind").asText(), reply.toString());
        assertFalse(reply.path("error").asText().isBlank());
    }
}
