package io.dagnats.leases.domain;

import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE;
import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE_ID;
import static io.dagnats.leases.domain.LeaseRuleExamples.BOB;
import static io.dagnats.leases.domain.LeaseRuleExamples.KEY;
import static io.dagnats.leases.domain.LeaseRuleExamples.assertLost;
import static io.dagnats.leases.domain.LeaseRuleExamples.heldByAlice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** release: only the holder, with the current fence, writes a tombstone; every other release is lost. */
class ReleaseRulesTest {

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
    void releaseOfAnExpiredLeaseIsLost() {
        assertLost(LeaseRules.release(new KeyState.Free(KEY, 43), ALICE, new Fence(42)), Lost.Reason.NOT_HELD);
    }

    @Test
    void releaseWithStaleFenceOrByAnotherHolderIsLost() {
        assertLost(LeaseRules.release(heldByAlice(42, 40), ALICE, new Fence(40)), Lost.Reason.STALE_FENCE);
        assertLost(LeaseRules.release(heldByAlice(42, 40), BOB, new Fence(42)), Lost.Reason.HELD_BY_OTHER);
    }
}
