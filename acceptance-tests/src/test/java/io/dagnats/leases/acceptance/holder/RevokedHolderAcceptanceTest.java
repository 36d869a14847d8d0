package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.ToldListener;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The holder library under an operator's revoke: a waiting replica campaigns on
 * the revoked event, like on a release, and the revoked owner stops on the same
 * event, told REVOKED (or, were it lost, at its next renew, which answers lost). (Between the two, both believe they own: revoke is
 * an override, and only downstream fencing protects writes. That is why this is
 * not among the holder tests whose ownership logs are checked for overlaps.)
 */
class RevokedHolderAcceptanceTest extends SharedServiceTest {

    /** Long enough that a waiting replica's own wake-up (near the lease's expiry) cannot be mistaken for the event's. */
    private static final Duration TTL = Duration.ofSeconds(9);

    private static final class Replica implements AutoCloseable {
        final Connection connection;
        final LeaseHolder holder;
        final KeptLease lease;
        final ToldListener told = new ToldListener();
        final List<String> events = told.events();

        Replica(String prefix) throws Exception {
            this(prefix, "revoked-leader", TTL);
        }

        Replica(String prefix, String key, Duration ttl) throws Exception {
            connection = Nats.connect(service.nats.url());
            holder = LeaseHolder.builder(connection).holderPrefix(prefix).build();
            lease = holder.keep(key, ttl, told);
        }

        @Override
        public void close() throws Exception {
            holder.close();
            connection.close();
        }
    }

    @Test
    void aWaitingReplicaTakesOverOnTheRevokedEventAndTheRevokedOwnerStopsAtItsNextRenew() throws Exception {
        try (Replica first = new Replica("first"); Replica second = new Replica("second")) {
            Replica owner = Polling.until(Duration.ofSeconds(10), "an owner",
                    () -> first.lease.isOwner() ? first : second.lease.isOwner() ? second : null, found -> found != null);
            Replica waiting = owner == first ? second : first;
            long ownersFence = owner.lease.fence().orElseThrow().revision();

            long revision = client.revoke("revoked-leader", "acceptance test").path("revision").asLong();
            long revoked = System.nanoTime();

            // The event wakes the waiting replica at once: well before the revoked lease's TTL would have.
            Polling.until(Duration.ofSeconds(3), "the waiting replica to own", waiting.lease::isOwner, isOwner -> isOwner);
            assertTrue(waiting.lease.fence().orElseThrow().revision() > revision);
            // The revoked owner stops on the event (told REVOKED), or at its next renew (every ttl/3), which
            // answers lost without saying why (told LOST); never as late as its deadline.
            Polling.until(TTL.dividedBy(3).plusSeconds(2), "the revoked owner to stop", () -> owner.events,
                    events -> events.contains("stopped:REVOKED") || events.contains("stopped:LOST"));
            long stoppedMillis = (System.nanoTime() - revoked) / 1_000_000;
            assertTrue(stoppedMillis < TTL.toMillis() - 1_000, "stopped " + stoppedMillis + " ms after the revoke");
            assertTrue(!owner.lease.isOwner() && ownersFence < revision);
        }
    }

    @Test
    void theRevokedOwnerStopsOnTheRevokedEventToldRevokedAndItsLogNamesTheOperatorAndItself() throws Exception {
        // Renewals every 20 s: stopping within 3 s can only come from the event.
        Duration ttl = Duration.ofSeconds(60);
        try (HolderLogLines lines = new HolderLogLines(); Replica owner = new Replica("sole", "revoked-sole", ttl)) {
            Polling.until(Duration.ofSeconds(10), "the replica to own", owner.lease::isOwner, isOwner -> isOwner);

            long revision = client.revoke("revoked-sole", "moving the job to eu-west").path("revision").asLong();

            Polling.until(Duration.ofSeconds(3), "the revoked owner to stop on the event", () -> owner.events,
                    events -> events.contains("stopped:REVOKED"));
            assertTrue(!owner.lease.isOwner());
            // Before: "lease revoked-sole ended on the server (revoked at revision N by sole-...: ...)", the
            // revoked holder named as if it revoked.
            String expected = "lease revoked-sole revoked by an operator at revision " + revision
                    + ": moving the job to eu-west; this process (holder " + owner.holder.id() + ") stops acting as owner";
            assertEquals(List.of(expected), lines.containing("lease revoked-sole revoked"), String.join("\n", lines.all()));
            assertTrue(lines.containing(" by " + owner.holder.id()).isEmpty(), String.join("\n", lines.all()));
        }
    }
}
