package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Lost;
import io.dagnats.leases.domain.Renewal;
import io.dagnats.leases.domain.Revocation;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A revoke frees the key the holder had, and, under a fence or after a lost race, ends nothing but the lease it answers. */
class RevokeEndsOnlyTheAnsweredLeaseTest extends LeaseUseCasesFixture {

    @Test
    void revokeFreesTheKeySoTheHoldersRenewIsLostAndAnotherHolderAcquires() {
        Lease alices = granted(acquire(ALICE));

        Revocation answer = join(revoke.execute(new RevokeLease.Command(KEY, WHY, Optional.empty())));

        Revocation.Revoked revoked = assertInstanceOf(Revocation.Revoked.class, answer);
        assertEquals(ALICE, revoked.holder());
        assertEquals(alices.revision(), revoked.revokedRevision());
        assertTrue(alices.revision().isBelow(revoked.revision()));
        LeaseWrite.Tombstone tombstone = assertInstanceOf(LeaseWrite.Tombstone.class, store.applied().get(1));
        assertEquals(Optional.of(WHY), tombstone.revokeReason());
        Renewal renewal = join(renew.execute(new RenewLease.Command(KEY, ALICE, alices.revision(), Optional.empty())));
        assertEquals(Lost.Reason.NOT_HELD, assertInstanceOf(Lost.class, renewal).reason());
        assertTrue(revoked.revision().isBelow(granted(acquire(BOB)).revision()));
    }

    @Test
    void revokeOfAFreeKeyWritesNothing() {
        assertEquals(new Revocation.Free(KEY), join(revoke.execute(new RevokeLease.Command(KEY, WHY, Optional.empty()))));
        assertEquals(0, store.applied().size());
    }

    @Test
    void revokeUnderAFenceThatIsNotCurrentAnswersTheCurrentLeaseAndWritesNothing() {
        Lease alices = granted(acquire(ALICE));

        Revocation answer = join(revoke.execute(new RevokeLease.Command(KEY, WHY, Optional.of(new Fence(alices.revision().revision() + 1)))));

        assertEquals(new Revocation.NotCurrent(alices), answer);
        assertEquals(1, store.applied().size());
    }

    @Test
    void aRevokeThatLosesARaceToARenewRevokesTheRenewedLeaseWhenNoRevisionWasGiven() {
        Lease alices = granted(acquire(ALICE));
        store.interleaveBeforeNextWrite(() -> join(renew.execute(
                new RenewLease.Command(KEY, ALICE, alices.revision(), Optional.empty()))));

        Revocation answer = join(revoke.execute(new RevokeLease.Command(KEY, WHY, Optional.empty())));

        Revocation.Revoked revoked = assertInstanceOf(Revocation.Revoked.class, answer);
        assertTrue(alices.revision().isBelow(revoked.revokedRevision()), "the renewed fence was revoked");
    }

    @Test
    void aRevokeUnderAFenceThatLosesARaceToARenewAnswersTheRenewedLease() {
        Lease alices = granted(acquire(ALICE));
        store.interleaveBeforeNextWrite(() -> join(renew.execute(
                new RenewLease.Command(KEY, ALICE, alices.revision(), Optional.empty()))));

        Revocation answer = join(revoke.execute(new RevokeLease.Command(KEY, WHY, Optional.of(alices.revision()))));

        Revocation.NotCurrent notCurrent = assertInstanceOf(Revocation.NotCurrent.class, answer);
        assertTrue(alices.revision().isBelow(notCurrent.lease().revision()));
        assertInstanceOf(KeyState.Held.class, join(store.read(KEY)));
    }

    @Test
    void aRevokeWithoutRevisionThatLosesARaceToAReleaseAndAnotherHoldersAcquireEndsNothing() {
        Lease alices = granted(acquire(ALICE));
        store.interleaveBeforeNextWrite(() -> {
            join(release.execute(new ReleaseLease.Command(KEY, ALICE, alices.revision())));
            granted(acquire(BOB));
        });

        Revocation answer = join(revoke.execute(new RevokeLease.Command(KEY, WHY, Optional.empty())));

        Revocation.NotCurrent notCurrent = assertInstanceOf(Revocation.NotCurrent.class, answer);
        assertEquals(BOB, notCurrent.lease().holder());
        assertEquals(new KeyState.Held(notCurrent.lease()), join(store.read(KEY)), "bob still holds, as answered");
    }

    @Test
    void aRevokeWithoutRevisionDecidedOnAReadThatLosesARaceToAnotherTenureEndsNothing() {
        Lease alices = granted(acquire(ALICE));
        RevokeLease unremembering = new RevokeLease(store, new KnownLeases(1_000), clock);
        store.interleaveBeforeNextWrite(() -> {
            join(release.execute(new ReleaseLease.Command(KEY, ALICE, alices.revision())));
            granted(acquire(ALICE));
        });

        Revocation answer = join(unremembering.execute(new RevokeLease.Command(KEY, WHY, Optional.empty())));

        Revocation.NotCurrent notCurrent = assertInstanceOf(Revocation.NotCurrent.class, answer);
        assertTrue(alices.tenure().isBelow(notCurrent.lease().tenure()), "a new tenure of the same holder is not revoked");
        assertInstanceOf(KeyState.Held.class, join(store.read(KEY)));
    }
}
