package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Lost;
import io.dagnats.leases.domain.Release;
import io.dagnats.leases.domain.Renewal;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What an instance remembers may propose a write, never an answer. */
class KnownLeasesTest {

    private static final LeaseKey KEY = new LeaseKey("k");
    private static final HolderId ALICE = new HolderId("alice");
    private static final HolderId BOB = new HolderId("bob");
    private static final LeaseTtl TTL = LeaseTtl.ofSeconds(15);

    private final TestingClock clock = new TestingClock(Instant.parse("2026-10-18T12:00:00Z"));
    private final InMemoryLeaseStore store = new InMemoryLeaseStore();

    /** One dagnats instance: its own memory over the shared store. */
    private final class Instance {
        final KnownLeases known = new KnownLeases(100);
        final AcquireLease acquire = new AcquireLease(store, known, clock);
        final RenewLease renew = new RenewLease(store, known, clock);
        final ReleaseLease release = new ReleaseLease(store, known);

        Acquisition acquire(HolderId holder) {
            return acquire.execute(new AcquireLease.Command(KEY, holder, TTL)).toCompletableFuture().join();
        }

        Renewal renew(HolderId holder, Lease lease) {
            return renew.execute(new RenewLease.Command(KEY, holder, lease.revision(), Optional.empty()))
                    .toCompletableFuture().join();
        }
    }

    private final Instance one = new Instance();
    private final Instance two = new Instance();

    @Test
    void aFreshKeyIsGrantedInOneWriteWithoutARead() {
        assertInstanceOf(Acquisition.Granted.class, one.acquire(ALICE));

        assertEquals(0, store.reads());
        assertEquals(1, store.applied().size());
    }

    @Test
    void renewingTheCallersOwnLastWriteIsOneWriteWithoutARead() {
        Lease lease = one.acquire(ALICE).lease();
        Lease renewed = assertInstanceOf(Renewal.Renewed.class, one.renew(ALICE, lease)).lease();
        assertInstanceOf(Renewal.Renewed.class, one.renew(ALICE, renewed));

        assertEquals(0, store.reads());
        assertEquals(3, store.applied().size());
    }

    @Test
    void aRememberedStateThatMovedOnFallsBackToAReadAndATruthfulAnswer() {
        Lease lease = one.acquire(ALICE).lease();
        // The other instance renews: the first instance's memory of revision N is now not the last write.
        two.renew(ALICE, lease);

        Renewal stale = one.renew(ALICE, lease);

        assertEquals(Lost.Reason.STALE_FENCE, assertInstanceOf(Lost.class, stale).reason());
        assertEquals(2, store.applied().size());
    }

    @Test
    void aHeldKeyNotRememberedIsAnsweredFromARead() {
        Lease alices = one.acquire(ALICE).lease();

        Acquisition bobs = two.acquire(BOB);

        assertEquals(alices, assertInstanceOf(Acquisition.HeldByOther.class, bobs).lease());
        assertEquals(1, store.reads());
        assertEquals(1, store.applied().size());
    }

    @Test
    void anAnswerIsNeverTakenFromMemory() {
        Lease lease = one.acquire(ALICE).lease();
        store.expire(KEY);

        // Memory says alice holds it at this revision; only the store can say it expired.
        Renewal renewal = one.renew(ALICE, lease);

        assertEquals(Lost.Reason.NOT_HELD, assertInstanceOf(Lost.class, renewal).reason());
    }

    @Test
    void aReleaseOfTheCallersOwnLastWriteIsOneWrite() {
        Lease lease = one.acquire(ALICE).lease();

        Release released = one.release.execute(new ReleaseLease.Command(KEY, ALICE, lease.revision()))
                .toCompletableFuture().join();

        assertInstanceOf(Release.Released.class, released);
        assertEquals(0, store.reads());
    }

    @Test
    void theMemoryIsBounded() {
        KnownLeases small = new KnownLeases(2);
        for (int i = 0; i < 5; i++) {
            small.saw(new io.dagnats.leases.domain.KeyState.Free(new LeaseKey("k" + i), i + 1));
        }
        assertEquals(2, small.size());
        assertEquals(Optional.empty(), small.lastSeen(new LeaseKey("k0")));
    }
}
