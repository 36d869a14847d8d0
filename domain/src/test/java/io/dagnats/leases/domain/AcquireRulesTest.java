package io.dagnats.leases.domain;

import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE;
import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE_ID;
import static io.dagnats.leases.domain.LeaseRuleExamples.BOB;
import static io.dagnats.leases.domain.LeaseRuleExamples.KEY;
import static io.dagnats.leases.domain.LeaseRuleExamples.T0;
import static io.dagnats.leases.domain.LeaseRuleExamples.T1;
import static io.dagnats.leases.domain.LeaseRuleExamples.TTL;
import static io.dagnats.leases.domain.LeaseRuleExamples.heldByAlice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** acquire: a free key is taken by one write; a held one is answered, never written. */
class AcquireRulesTest {

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
}
