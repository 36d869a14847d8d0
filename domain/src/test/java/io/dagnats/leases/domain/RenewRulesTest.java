package io.dagnats.leases.domain;

import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE;
import static io.dagnats.leases.domain.LeaseRuleExamples.BOB;
import static io.dagnats.leases.domain.LeaseRuleExamples.KEY;
import static io.dagnats.leases.domain.LeaseRuleExamples.T0;
import static io.dagnats.leases.domain.LeaseRuleExamples.T1;
import static io.dagnats.leases.domain.LeaseRuleExamples.TTL;
import static io.dagnats.leases.domain.LeaseRuleExamples.assertLost;
import static io.dagnats.leases.domain.LeaseRuleExamples.heldByAlice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** renew: only the holder, with the current fence, writes; every other renew is lost. */
class RenewRulesTest {

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
}
