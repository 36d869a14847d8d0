package io.dagnats.leases.domain;

import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE_ID;
import static io.dagnats.leases.domain.LeaseRuleExamples.BOB;
import static io.dagnats.leases.domain.LeaseRuleExamples.KEY;
import static io.dagnats.leases.domain.LeaseRuleExamples.T1;
import static io.dagnats.leases.domain.LeaseRuleExamples.TTL;
import static io.dagnats.leases.domain.LeaseRuleExamples.heldByAlice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** revoke: an operator ends the current tenure, and only it, even when the revoke is decided again. */
class RevokeRulesTest {

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
}
