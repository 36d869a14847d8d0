package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Lost;
import io.dagnats.leases.domain.Release;
import io.dagnats.leases.domain.Renewal;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What an instance remembers may propose a write, never an answer: the store decides. */
class KnownLeasesProposeWritesNeverAnswersTest extends KnownLeasesFixture {

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
        KnownLeases.Ticket ticket = small.begin(FRESH);
        for (int i = 0; i < 5; i++) {
            small.saw(ticket, new KeyState.Free(new LeaseKey("k" + i), i + 1));
        }
        assertEquals(2, small.size());
        assertEquals(Optional.empty(), small.lastSeen(ticket, new LeaseKey("k0")));
    }
}
