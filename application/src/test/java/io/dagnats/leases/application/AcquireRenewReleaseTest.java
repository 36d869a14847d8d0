package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.Lost;
import io.dagnats.leases.domain.Release;
import io.dagnats.leases.domain.Renewal;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Acquire starts a tenure or names the owner; renew raises the fence inside it; release and expiry end it. */
class AcquireRenewReleaseTest extends LeaseUseCasesFixture {

    @Test
    void acquireGrantsAFreeKeyAndStartsATenure() {
        Lease lease = granted(acquire(ALICE));

        assertEquals(ALICE, lease.holder());
        assertEquals(lease.revision(), lease.tenure());
        assertEquals(clock.instant(), lease.acquiredAt());
        assertEquals(clock.instant().plusSeconds(15), lease.expiresAt());
    }

    @Test
    void acquireByCurrentHolderDoesNotExtendTtl() {
        Lease first = granted(acquire(ALICE));
        clock.advance(Duration.ofSeconds(5));

        Lease again = granted(acquire(ALICE));

        assertEquals(first, again);
        assertEquals(1, store.applied().size());
    }

    @Test
    void contendedAcquireNamesTheOwner() {
        Lease alices = granted(acquire(ALICE));

        Acquisition answer = join(acquire.execute(new AcquireLease.Command(KEY, BOB, TTL)));

        Acquisition.HeldByOther other = assertInstanceOf(Acquisition.HeldByOther.class, answer);
        assertEquals(alices, other.lease());
    }

    @Test
    void anAcquireThatLosesTheRaceAnswersWithTheWinner() {
        store.interleaveBeforeNextWrite(() -> join(acquire.execute(new AcquireLease.Command(KEY, BOB, TTL))));

        Acquisition answer = join(acquire.execute(new AcquireLease.Command(KEY, ALICE, TTL)));

        Acquisition.HeldByOther other = assertInstanceOf(Acquisition.HeldByOther.class, answer);
        assertEquals(BOB, other.lease().holder());
        assertEquals(1, store.applied().size());
    }

    @Test
    void renewRaisesTheFenceInsideTheSameTenure() {
        Lease lease = granted(acquire(ALICE));
        clock.advance(Duration.ofSeconds(5));

        Renewal renewal = join(renew.execute(new RenewLease.Command(KEY, ALICE, lease.revision(), Optional.empty())));

        Lease renewed = assertInstanceOf(Renewal.Renewed.class, renewal).lease();
        assertTrue(lease.revision().isBelow(renewed.revision()));
        assertEquals(lease.tenure(), renewed.tenure());
        assertEquals(lease.acquiredAt(), renewed.acquiredAt());
        assertEquals(TTL, renewed.ttl());
        assertEquals(clock.instant().plusSeconds(15), renewed.expiresAt());
    }

    @Test
    void renewWithStaleFenceIsLostAndWritesNothing() {
        Lease lease = granted(acquire(ALICE));
        join(renew.execute(new RenewLease.Command(KEY, ALICE, lease.revision(), Optional.empty())));

        Renewal stale = join(renew.execute(new RenewLease.Command(KEY, ALICE, lease.revision(), Optional.empty())));

        assertEquals(Lost.Reason.STALE_FENCE, assertInstanceOf(Lost.class, stale).reason());
        assertEquals(2, store.applied().size());
    }

    @Test
    void renewAfterExpiryIsLost() {
        Lease lease = granted(acquire(ALICE));
        store.expire(KEY);

        Renewal renewal = join(renew.execute(new RenewLease.Command(KEY, ALICE, lease.revision(), Optional.empty())));

        assertEquals(Lost.Reason.NOT_HELD, assertInstanceOf(Lost.class, renewal).reason());
    }

    @Test
    void releaseThenAcquireByAnotherHolderGetsAHigherFence() {
        Lease alices = granted(acquire(ALICE));

        Release released = join(release.execute(new ReleaseLease.Command(KEY, ALICE, alices.revision())));
        Fence releaseFence = assertInstanceOf(Release.Released.class, released).revision();
        Lease bobs = granted(acquire(BOB));

        assertTrue(alices.revision().isBelow(releaseFence));
        assertTrue(releaseFence.isBelow(bobs.revision()));
        assertInstanceOf(KeyState.Held.class, join(store.read(KEY)));
    }

    @Test
    void releaseByAnotherHolderIsLost() {
        Lease alices = granted(acquire(ALICE));

        Release answer = join(release.execute(new ReleaseLease.Command(KEY, BOB, alices.revision())));

        assertEquals(Lost.Reason.HELD_BY_OTHER, assertInstanceOf(Lost.class, answer).reason());
    }
}
