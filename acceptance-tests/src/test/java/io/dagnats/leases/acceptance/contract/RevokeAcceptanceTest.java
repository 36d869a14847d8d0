package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code api.leases.revoke}: a free key says so, a revision that is not the fence answers the
 * current lease, the revoked holder's renew is lost, and the revoked event names holder, fence and
 * reason.
 */
class RevokeAcceptanceTest extends SharedServiceTest {

    @Test
    void revokeOfAFreeKeySaysSoAndWritesNothing() {
        JsonNode reply = client.revoke("never-held", "cleaning up");

        assertEquals(WireClient.JSON.createObjectNode().put("revoked", false).put("held", false).put("key", "never-held"),
                reply);
    }

    @Test
    void revokeUnderARevisionThatIsNotTheFenceAnswersTheCurrentLease() {
        long revision = client.acquire("mismatch", "m", 30_000).path("revision").asLong();

        JsonNode reply = client.revoke("mismatch", "wrong fence", revision + 1);

        assertFalse(reply.path("revoked").asBoolean(true), reply.toString());
        assertTrue(reply.path("held").asBoolean(), reply.toString());
        assertEquals("m", reply.path("holder").asText());
        assertEquals(revision, reply.path("revision").asLong());
        assertFalse(reply.has("granted"), reply.toString());
        assertEquals(revision, client.owner("mismatch").path("revision").asLong(), "nothing was written");
    }

    @Test
    void aRevokedHoldersRenewIsLostAndAnotherHolderAcquiresAtOnce() {
        long revision = client.acquire("revoked-key", "stuck", 600_000).path("revision").asLong();

        JsonNode revoked = client.revoke("revoked-key", "stuck after a GC pause", revision);

        assertTrue(revoked.path("revoked").asBoolean(), revoked.toString());
        assertEquals("revoked-key", revoked.path("key").asText());
        assertEquals("stuck", revoked.path("holder").asText());
        assertEquals(revision, revoked.path("revoked_revision").asLong());
        assertTrue(revoked.path("revision").asLong() > revision, revoked.toString());
        JsonNode renew = client.renew("revoked-key", "stuck", revision);
        assertEquals("lost", renew.path("kind").asText(), renew.toString());
        JsonNode next = client.acquire("revoked-key", "next", 15_000);
        assertTrue(next.path("granted").asBoolean(), next.toString());
        assertTrue(next.path("revision").asLong() > revoked.path("revision").asLong(), next.toString());
    }

    @Test
    void theRevokedEventNamesTheHolderTheFenceAndTheReasonAndExpiresLikeARelease() throws Exception {
        Subscription events = client.connection().subscribe("dagnats.lease.changed.revoke-events");
        client.connection().flush(Duration.ofSeconds(5));
        long acquired = client.acquire("revoke-events", "watched", 30_000).path("revision").asLong();
        long revoked = client.revoke("revoke-events", "moving shard to zone b").path("revision").asLong();
        long reacquired = client.acquire("revoke-events", "watched", 30_000).path("revision").asLong();
        long released = client.release("revoke-events", "watched", reacquired).path("revision").asLong();

        Message acquiredEvent = next(events, acquired);
        assertEquals("acquired", acquiredEvent.getHeaders().getFirst("Dagnats-Lease-Event"));
        assertEquals("watched", acquiredEvent.getHeaders().getFirst("Dagnats-Lease-Holder"));
        assertNull(acquiredEvent.getHeaders().getFirst("Dagnats-Lease-Fence"));
        Message revokedEvent = next(events, revoked);
        assertEquals("revoked", revokedEvent.getHeaders().getFirst("Dagnats-Lease-Event"));
        assertEquals("watched", revokedEvent.getHeaders().getFirst("Dagnats-Lease-Holder"));
        assertEquals(Long.toString(acquired), revokedEvent.getHeaders().getFirst("Dagnats-Lease-Fence"));
        assertEquals("moving shard to zone b", revokedEvent.getHeaders().getFirst("Dagnats-Lease-Reason"));
        assertEquals("DEL", revokedEvent.getHeaders().getFirst("KV-Operation"));
        next(events, reacquired);
        Message releasedEvent = next(events, released);
        assertEquals("released", releasedEvent.getHeaders().getFirst("Dagnats-Lease-Event"));
        assertNull(releasedEvent.getHeaders().getFirst("Dagnats-Lease-Reason"));
        // Both tombstones expire the same way: the marker TTL.
        assertNotNull(revokedEvent.getHeaders().getFirst("Nats-TTL"));
        assertEquals(releasedEvent.getHeaders().getFirst("Nats-TTL"), revokedEvent.getHeaders().getFirst("Nats-TTL"));
    }

    private static Message next(Subscription events, long revision) throws InterruptedException {
        Message event = events.nextMessage(Duration.ofSeconds(5));
        assertNotNull(event, "no event for revision " + revision);
        assertEquals(Long.toString(revision), event.getHeaders().getFirst("Nats-Sequence"));
        return event;
    }
}
