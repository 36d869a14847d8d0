package io.dagnats.leases.cli;

import io.dagnats.leases.protocol.LeaseChange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KnownHoldersTest {

    private static final LeaseKey KEY = new LeaseKey("shard-7");
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    private static LeaseChange change(LeaseChange.Kind kind, long sequence, String holder) {
        return new LeaseChange(NOW, KEY, kind, sequence, Optional.ofNullable(holder).map(HolderId::new),
                holder == null ? Optional.empty() : Optional.of(new Fence(sequence)), Optional.empty(), Optional.empty());
    }

    private static LeaseView lease(String holder, long revision) {
        return new LeaseView(KEY, new HolderId(holder), new Fence(revision), NOW, NOW.plusSeconds(15), LeaseTtl.ofSeconds(15));
    }

    @Test
    void anExpiryNamesTheHolderTheListingShowed() {
        KnownHolders holders = new KnownHolders(true);
        holders.held(lease("worker-1", 40));

        LeaseChange expired = holders.explain(change(LeaseChange.Kind.EXPIRED, 41, null)).orElseThrow();

        assertEquals(Optional.of(new HolderId("worker-1")), expired.holder());
        assertEquals(Optional.of(new Fence(40)), expired.fence());
    }

    /** dagnats' removal of a lease the store forgot to expire (ADR-035) names its lease already. */
    @Test
    void anExpiryDagnatsWroteIsShownAsItNamesTheLeaseEvenUnlisted() {
        KnownHolders holders = new KnownHolders(true);
        LeaseChange written = new LeaseChange(NOW, KEY, LeaseChange.Kind.EXPIRED, 45, Optional.of(new HolderId("worker-3")),
                Optional.of(new Fence(44)), Optional.empty(), Optional.empty());

        assertEquals(Optional.of(written), holders.explain(written));
    }

    @Test
    void anExpiryNamesTheHolderOfTheLastWriteSeen() {
        KnownHolders holders = new KnownHolders(true);
        holders.held(lease("worker-1", 40));
        holders.explain(change(LeaseChange.Kind.RELEASED, 41, "worker-1"));
        holders.explain(change(LeaseChange.Kind.ACQUIRED, 42, "worker-2"));
        holders.explain(change(LeaseChange.Kind.RENEWED, 43, "worker-2"));

        LeaseChange expired = holders.explain(change(LeaseChange.Kind.EXPIRED, 44, null)).orElseThrow();

        assertEquals(Optional.of(new HolderId("worker-2")), expired.holder());
        assertEquals(Optional.of(new Fence(43)), expired.fence());
    }

    @Test
    void aTombstoneExpiringEndsNoLeaseAndIsLeftOut() {
        KnownHolders holders = new KnownHolders(true);
        holders.explain(change(LeaseChange.Kind.ACQUIRED, 42, "worker-2"));
        holders.explain(change(LeaseChange.Kind.REVOKED, 43, "worker-2"));

        assertTrue(holders.explain(change(LeaseChange.Kind.EXPIRED, 44, null)).isEmpty());
    }

    @Test
    void aKeyTheListingDidNotShowWasFree() {
        assertTrue(new KnownHolders(true).explain(change(LeaseChange.Kind.EXPIRED, 44, null)).isEmpty());
    }

    @Test
    void withoutAListingAnUnknownKeysExpiryIsShownWithoutAHolder() {
        LeaseChange expired = new KnownHolders(false).explain(change(LeaseChange.Kind.EXPIRED, 44, null)).orElseThrow();
        assertEquals(Optional.empty(), expired.holder());
    }

    @Test
    void aListingOlderThanAnEventSeenDoesNotOverrideIt() {
        KnownHolders holders = new KnownHolders(true);
        holders.explain(change(LeaseChange.Kind.ACQUIRED, 42, "worker-2"));
        holders.held(lease("worker-1", 40));

        LeaseChange expired = holders.explain(change(LeaseChange.Kind.EXPIRED, 44, null)).orElseThrow();

        assertEquals(Optional.of(new HolderId("worker-2")), expired.holder());
    }
}
