package io.dagnats.leases.domain;

import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE;
import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE_RUN_1;
import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE_RUN_2;
import static io.dagnats.leases.domain.LeaseRuleExamples.T1;
import static io.dagnats.leases.domain.LeaseRuleExamples.TTL;
import static io.dagnats.leases.domain.LeaseRuleExamples.assertLost;
import static io.dagnats.leases.domain.LeaseRuleExamples.heldBy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A holder id under another incarnation, or without one, is another holder. */
class IncarnationRulesTest {

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
