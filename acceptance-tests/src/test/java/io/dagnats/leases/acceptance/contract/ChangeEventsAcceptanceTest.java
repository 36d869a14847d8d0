package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Every write is republished on dagnats.lease.changed.<key>, naming its event and holder (and,
 * for a release, the fence that ended), and so is an expiry.
 */
class ChangeEventsAcceptanceTest extends SharedServiceTest {


    @Test
    void everyWriteIsRepublishedWithItsRevisionAndEvent() throws Exception {
        Subscription events = client.connection().subscribe("dagnats.lease.changed.events-key");
        client.connection().flush(Duration.ofSeconds(5));

        long acquired = client.acquire("events-key", "a", 15_000).path("revision").asLong();
        long renewed = client.renew("events-key", "a", acquired).path("revision").asLong();
        long released = client.release("events-key", "a", renewed).path("revision").asLong();

        assertEvent(events.nextMessage(Duration.ofSeconds(5)), "events-key", acquired, "acquired");
        assertEvent(events.nextMessage(Duration.ofSeconds(5)), "events-key", renewed, "renewed");
        Message release = events.nextMessage(Duration.ofSeconds(5));
        assertEvent(release, "events-key", released, "released");
        // A release names the fence of the lease it ended, so a watcher knows whose tenure stopped.
        assertEquals(Long.toString(renewed), release.getHeaders().getFirst("Dagnats-Lease-Fence"));
        assertNull(release.getHeaders().getFirst("Dagnats-Lease-Reason"));
    }

    @Test
    void readsAndRefusedWritesPublishNothing() throws Exception {
        long revision = client.acquire("quiet-key", "a", 15_000).path("revision").asLong();
        Subscription events = client.connection().subscribe("dagnats.lease.changed.quiet-key");
        client.connection().flush(Duration.ofSeconds(5));

        client.owner("quiet-key");
        client.acquire("quiet-key", "b", 15_000);
        client.acquire("quiet-key", "a", 15_000);
        client.renew("quiet-key", "a", revision + 100);
        long renewed = client.renew("quiet-key", "a", revision).path("revision").asLong();

        // The first event to arrive is the renew: nothing before it published.
        assertEvent(events.nextMessage(Duration.ofSeconds(5)), "quiet-key", renewed, "renewed");
    }

    @Test
    void anExpiryIsVisibleAsAnEvent() throws Exception {
        Subscription events = client.connection().subscribe("dagnats.lease.changed.expiring-key");
        client.connection().flush(Duration.ofSeconds(5));

        long acquired = client.acquire("expiring-key", "a", 1_000).path("revision").asLong();

        assertEvent(events.nextMessage(Duration.ofSeconds(5)), "expiring-key", acquired, "acquired");
        Message expiry = events.nextMessage(Duration.ofSeconds(10));
        assertNotNull(expiry, "no expiry event within 10 s of a 1 s lease");
        assertEquals("MaxAge", expiry.getHeaders().getFirst("Nats-Marker-Reason"));
        assertNull(expiry.getHeaders().getFirst("Dagnats-Lease-Event"));
        // The server writes the marker: it names no holder; a watcher knows it from the events before.
        assertNull(expiry.getHeaders().getFirst("Dagnats-Lease-Holder"));
        assertTrue(Long.parseLong(expiry.getHeaders().getFirst("Nats-Sequence")) > acquired);
        assertEquals("$KV.leases.expiring-key", expiry.getHeaders().getFirst("Nats-Subject"));
    }

    private static void assertEvent(Message event, String key, long revision, String kind) {
        assertNotNull(event, "no " + kind + " event");
        assertEquals("dagnats.lease.changed." + key, event.getSubject());
        assertEquals(Long.toString(revision), event.getHeaders().getFirst("Nats-Sequence"), kind);
        assertEquals(kind, event.getHeaders().getFirst("Dagnats-Lease-Event"));
        assertEquals("a", event.getHeaders().getFirst("Dagnats-Lease-Holder"), kind);
        assertEquals("$KV.leases." + key, event.getHeaders().getFirst("Nats-Subject"));
    }
}
