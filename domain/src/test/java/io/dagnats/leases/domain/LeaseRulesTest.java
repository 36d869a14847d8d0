package io.dagnats.leases.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LeaseRulesTest {

    private static final LeaseKey KEY = new LeaseKey("notify-leader");
    private static final HolderId ALICE_ID = new HolderId("notify-7f3a");
    private static final Claimant ALICE = Claimant.of(ALICE_ID);
    private static final Claimant BOB = Claimant.of(new HolderId("notify-19bc"));
    private static final Claimant ALICE_RUN_1 = Claimant.of(ALICE_ID, new Incarnation("run-1"));
    private static final Claimant ALICE_RUN_2 = Claimant.of(ALICE_ID, new Incarnation("run-2"));
    private static final LeaseTtl TTL = LeaseTtl.ofSeconds(15);
    private static final Instant T0 = Instant.parse("2026-10-18T12:00:00Z");
    private static final Instant T1 = Instant.parse("2026-10-18T12:00:05Z");

    private static KeyState.Held heldByAlice(long revision, long tenure) {
        return new KeyState.Held(new Lease(KEY, ALICE_ID, new Fence(revision), new Fence(tenure), T0, T1, TTL));
    }

    @Test
    void acquiringANeverWrittenKeyIsOneWriteExpectingNoMessage() {
        Decision<Acquisition> decision = LeaseRules.acquire(new KeyState.Free(KEY, 0), ALICE, TTL, T0);

        LeaseWrite.Put put = (LeaseWrite.Put) assertInstanceOf(Decision.Apply.class, decision).write();
        assertEquals(0, put.expectedSequence());
        assertEquals(LeaseEvent.ACQUIRED, put.event());
        assertEquals(ALICE, put.claimant());
        assertEquals(TTL, put.ttl());
        assertEquals(T0, put.acquiredAt());
        assertEquals(Optional.empty(), put.continuedTenure());
    }

    @Test
    void acquiringAReleasedOrExpiredKeyExpectsItsLastSequence() {
        Decision<Acquisition> decision = LeaseRules.acquire(new KeyState.Free(KEY, 57), BOB, TTL, T0);

        LeaseWrite write = assertInstanceOf(Decision.Apply.class, decision).write();
        assertEquals(57, write.expectedSequence());
    }

    @Test
    void anAcquireWriteStartsATenureAtItsOwnRevision() {
        LeaseWrite.Put put = (LeaseWrite.Put) ((Decision.Apply<Acquisition>)
                LeaseRules.acquire(new KeyState.Free(KEY, 3), ALICE, TTL, T0)).write();

        Lease lease = put.leaseAt(new Fence(4));
        assertEquals(new Fence(4), lease.revision());
        assertEquals(new Fence(4), lease.tenure());
        assertEquals(T0.plusSeconds(15), lease.expiresAt());
    }

    @Test
    void acquireByCurrentHolderReturnsTheSameLeaseWithoutWriting() {
        KeyState.Held state = heldByAlice(42, 40);

        Decision<Acquisition> decision = LeaseRules.acquire(state, ALICE, LeaseTtl.ofSeconds(600), T1);

        Object answer = assertInstanceOf(Decision.Answer.class, decision).outcome();
        Acquisition.Granted granted = assertInstanceOf(Acquisition.Granted.class, answer);
        assertEquals(state.lease(), granted.lease());
    }

    @Test
    void acquireByAnotherHolderIsANormalAnswerNamingTheOwner() {
        Decision<Acquisition> decision = LeaseRules.acquire(heldByAlice(42, 42), BOB, TTL, T1);

        Object outcome = assertInstanceOf(Decision.Answer.class, decision).outcome();
        Acquisition.HeldByOther other = assertInstanceOf(Acquisition.HeldByOther.class, outcome);
        assertEquals(ALICE_ID, other.lease().holder());
        assertEquals(new Fence(42), other.lease().revision());
    }

    @Test
    void renewWithTheCurrentFenceWritesInTheSameTenure() {
        Decision<Renewal> decision = LeaseRules.renew(heldByAlice(42, 40), ALICE, new Fence(42), Optional.empty(), T1);

        LeaseWrite.Put put = (LeaseWrite.Put) assertInstanceOf(Decision.Apply.class, decision).write();
        assertEquals(42, put.expectedSequence());
        assertEquals(LeaseEvent.RENEWED, put.event());
        assertEquals(Optional.of(new Fence(40)), put.continuedTenure());
        assertEquals(T0, put.acquiredAt());
        assertEquals(TTL, put.ttl());

        Lease renewed = put.leaseAt(new Fence(43));
        assertEquals(new Fence(40), renewed.tenure());
        assertEquals(T0, renewed.acquiredAt());
        assertEquals(T1, renewed.writtenAt());
        assertEquals(T1.plusSeconds(15), renewed.expiresAt());
    }

    @Test
    void renewWithANewTtlUsesIt() {
        Decision<Renewal> decision = LeaseRules.renew(
                heldByAlice(42, 42), ALICE, new Fence(42), Optional.of(LeaseTtl.ofSeconds(60)), T1);

        LeaseWrite.Put put = (LeaseWrite.Put) assertInstanceOf(Decision.Apply.class, decision).write();
        assertEquals(LeaseTtl.ofSeconds(60), put.ttl());
    }

    @Test
    void renewWithStaleFenceIsLost() {
        assertLost(LeaseRules.renew(heldByAlice(42, 40), ALICE, new Fence(41), Optional.empty(), T1), Lost.Reason.STALE_FENCE);
    }

    @Test
    void renewWithAFenceFromTheFutureIsLost() {
        assertLost(LeaseRules.renew(heldByAlice(42, 40), ALICE, new Fence(43), Optional.empty(), T1), Lost.Reason.STALE_FENCE);
    }

    @Test
    void renewByAnotherHolderIsLostEvenWithTheCurrentFence() {
        assertLost(LeaseRules.renew(heldByAlice(42, 40), BOB, new Fence(42), Optional.empty(), T1), Lost.Reason.HELD_BY_OTHER);
    }

    @Test
    void renewOfAFreeKeyIsLost() {
        assertLost(LeaseRules.renew(new KeyState.Free(KEY, 42), ALICE, new Fence(42), Optional.empty(), T1), Lost.Reason.NOT_HELD);
    }

    @Test
    void releaseWithTheCurrentFenceWritesATombstone() {
        Decision<Release> decision = LeaseRules.release(heldByAlice(42, 40), ALICE, new Fence(42));

        LeaseWrite write = assertInstanceOf(Decision.Apply.class, decision).write();
        LeaseWrite.Tombstone tombstone = assertInstanceOf(LeaseWrite.Tombstone.class, write);
        assertEquals(42, tombstone.expectedSequence());
        assertEquals(LeaseEvent.RELEASED, tombstone.event());
        assertEquals(ALICE_ID, tombstone.holder());
        assertEquals(new Fence(42), tombstone.endedFence());
        assertEquals(Optional.empty(), tombstone.revokeReason());
    }

    @Test
    void revokeOfAHeldKeyWritesATombstoneNamingTheHolderTheFenceAndTheReason() {
        RevokeReason reason = new RevokeReason("stuck after a GC pause");
        Decision<Revocation> decision = LeaseRules.revoke(heldByAlice(42, 40), Optional.empty(), reason);

        LeaseWrite.Tombstone tombstone =
                assertInstanceOf(LeaseWrite.Tombstone.class, assertInstanceOf(Decision.Apply.class, decision).write());
        assertEquals(42, tombstone.expectedSequence());
        assertEquals(LeaseEvent.REVOKED, tombstone.event());
        assertEquals(ALICE_ID, tombstone.holder());
        assertEquals(new Fence(42), tombstone.endedFence());
        assertEquals(Optional.of(reason), tombstone.revokeReason());
    }

    @Test
    void revokeWithTheCurrentFenceRevokes() {
        Decision<Revocation> decision = LeaseRules.revoke(heldByAlice(42, 40), Optional.of(new Fence(42)),
                new RevokeReason("r"));

        assertEquals(LeaseEvent.REVOKED, assertInstanceOf(Decision.Apply.class, decision).write().event());
    }

    @Test
    void revokeWithAnotherFenceAnswersTheCurrentLeaseAndWritesNothing() {
        KeyState.Held held = heldByAlice(42, 40);
        Decision<Revocation> decision = LeaseRules.revoke(held, Optional.of(new Fence(41)), new RevokeReason("r"));

        assertEquals(new Revocation.NotCurrent(held.lease()), assertInstanceOf(Decision.Answer.class, decision).outcome());
    }

    @Test
    void revokeOfAFreeKeyAnswersFreeWithOrWithoutARevision() {
        for (Optional<Fence> revision : List.of(Optional.<Fence>empty(), Optional.of(new Fence(43)))) {
            Decision<Revocation> decision = LeaseRules.revoke(new KeyState.Free(KEY, 43), revision, new RevokeReason("r"));
            assertEquals(new Revocation.Free(KEY), assertInstanceOf(Decision.Answer.class, decision).outcome());
        }
    }

    @Test
    void releaseOfAnExpiredLeaseIsLost() {
        assertLost(LeaseRules.release(new KeyState.Free(KEY, 43), ALICE, new Fence(42)), Lost.Reason.NOT_HELD);
    }

    @Test
    void releaseWithStaleFenceOrByAnotherHolderIsLost() {
        assertLost(LeaseRules.release(heldByAlice(42, 40), ALICE, new Fence(40)), Lost.Reason.STALE_FENCE);
        assertLost(LeaseRules.release(heldByAlice(42, 40), BOB, new Fence(42)), Lost.Reason.HELD_BY_OTHER);
    }

    @Test
    void aLeaseCannotBeOlderThanItsTenure() {
        assertThrows(IllegalArgumentException.class,
                () -> new Lease(KEY, ALICE_ID, new Fence(3), new Fence(4), T0, T0, TTL));
    }

    @Test
    void aPutCannotRelease() {
        assertThrows(IllegalArgumentException.class, () -> new LeaseWrite.Put(
                KEY, 1, LeaseEvent.RELEASED, ALICE, T0, T0, TTL, Optional.empty()));
    }

    private static void assertLost(Decision<?> decision, Lost.Reason reason) {
        Object outcome = assertInstanceOf(Decision.Answer.class, decision).outcome();
        Lost lost = assertInstanceOf(Lost.class, outcome);
        assertEquals(reason, lost.reason());
        assertEquals(KEY, lost.key());
    }

    @Test
    void revokeDecidedAgainEndsTheSameTenureRenewedSince() {
        Lease first = heldByAlice(42, 40).lease();

        Decision<Revocation> decision = LeaseRules.revokeAgain(heldByAlice(45, 40), first, new RevokeReason("r"));

        LeaseWrite.Tombstone tombstone = (LeaseWrite.Tombstone) assertInstanceOf(Decision.Apply.class, decision).write();
        assertEquals(new Fence(45), tombstone.ended().revision());
    }

    @Test
    void revokeDecidedAgainEndsNoOtherTenure() {
        Lease first = heldByAlice(42, 40).lease();
        Lease bobs = new Lease(KEY, BOB.holder(), new Fence(44), new Fence(44), T1, T1, TTL);
        Lease alicesNext = heldByAlice(46, 46).lease();

        for (Lease other : List.of(bobs, alicesNext)) {
            Decision<Revocation> decision = LeaseRules.revokeAgain(new KeyState.Held(other), first, new RevokeReason("r"));
            assertEquals(new Revocation.NotCurrent(other), assertInstanceOf(Decision.Answer.class, decision).outcome());
        }
        assertEquals(new Revocation.Free(KEY), ((Decision.Answer<Revocation>)
                LeaseRules.revokeAgain(new KeyState.Free(KEY, 43), first, new RevokeReason("r"))).outcome());
    }

    private static KeyState.Held heldBy(Claimant claimant, long revision, long tenure) {
        return new KeyState.Held(new Lease(KEY, claimant.holder(), claimant.incarnation(), new Fence(revision),
                new Fence(tenure), T0, T1, TTL));
    }

    @Test
    void acquireUnderTheSameHolderIdAndIncarnationReturnsTheLeaseWithoutWriting() {
        KeyState.Held state = heldBy(ALICE_RUN_1, 42, 40);

        Object outcome = assertInstanceOf(Decision.Answer.class, LeaseRules.acquire(state, ALICE_RUN_1, TTL, T1)).outcome();

        assertEquals(new Acquisition.Granted(state.lease()), outcome);
    }

    @Test
    void theSameHolderIdUnderAnotherIncarnationOrWithoutOneIsAnotherHolder() {
        List<List<Claimant>> holderAndCaller = List.of(
                List.of(ALICE_RUN_1, ALICE_RUN_2), List.of(ALICE_RUN_1, ALICE), List.of(ALICE, ALICE_RUN_1));
        for (List<Claimant> pair : holderAndCaller) {
            KeyState.Held state = heldBy(pair.get(0), 42, 40);
            Claimant caller = pair.get(1);

            assertEquals(new Acquisition.HeldByOther(state.lease()), assertInstanceOf(Decision.Answer.class,
                    LeaseRules.acquire(state, caller, TTL, T1)).outcome(), pair.toString());
            assertLost(LeaseRules.renew(state, caller, new Fence(42), Optional.empty(), T1), Lost.Reason.HELD_BY_OTHER);
            assertLost(LeaseRules.release(state, caller, new Fence(42)), Lost.Reason.HELD_BY_OTHER);
        }
    }

    @Test
    void aRenewKeepsTheIncarnationItsLeaseWasAcquiredUnder() {
        LeaseWrite.Put put = (LeaseWrite.Put) assertInstanceOf(Decision.Apply.class,
                LeaseRules.renew(heldBy(ALICE_RUN_1, 42, 40), ALICE_RUN_1, new Fence(42), Optional.empty(), T1)).write();

        Lease renewed = put.leaseAt(new Fence(43));
        assertEquals(ALICE_RUN_1, renewed.claimant());
        assertEquals(new Fence(40), renewed.tenure());
    }
}
