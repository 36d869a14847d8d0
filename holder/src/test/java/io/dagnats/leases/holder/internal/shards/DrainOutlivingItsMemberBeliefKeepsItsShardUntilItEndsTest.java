package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A drain still running when the member's belief ends (memberEnded forgets the Draining or Parked
 * state, the drain thread goes on) keeps its shard until it ends: the shard is not owned here again
 * at the fence the drain may act at, nor detached for someone else before the drain's wait is over;
 * and a later drain of the shard waits for it and then ends too. Found by a review.
 */
class DrainOutlivingItsMemberBeliefKeepsItsShardUntilItEndsTest extends OwnShardsFixture {

    DrainOutlivingItsMemberBeliefKeepsItsShardUntilItEndsTest() {
        super(Duration.ofSeconds(30));
    }

    /**
     * Interleaving: A owns shard 3 at 77 and is asked to move it; its drain starts and has not
     * returned (nor reached its bound) when dagnats is slow and A's member deadline passes:
     * memberEnded forgets the Draining state (no spend: only overran() spends, and it now finds the
     * state gone). The member's renew then succeeds in the same tenure, the view shows 3 here at 77,
     * A confirms, and the idempotent attach is granted at 77: owned again at 77, shardAssigned told,
     * while the first tenure's drain is still running at 77 (the very case ece5915 closed for a
     * parked drain, reached one step earlier).
     */
    @Test
    void aShardWhoseDrainStillRunsIsNotOwnedAgainAtItsFenceAfterTheMembersDeadlinePassed() {
        owned(3, 77);
        own.handOver(3, TARGET); // the drain starts; its thread has not returned
        own.memberEnded(StopReason.DEADLINE_PASSED); // dagnats slow; the member lease lives on, unchanged

        own.confirm(3, TENURE, 77); // the member renewed in the same tenure; the view shows 3 here
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(77), TENURE));

        assertEquals(Set.of(), own.believed(member), "the first drain may still act at 77: " + record);
        assertFalse(record.subList(2, record.size()).contains("assigned 3 at 77"), record.toString());
    }

    /**
     * Interleaving: A's drain of shard 3 (owned at 77) runs when the member lease is lost; A takes
     * the member again (tenure 90) and attaches 3 at 91 while the old drain still runs. Placement
     * asks A to move 3: the new Draining state is set, but ShardDrains.start returns at once ("a
     * shard already draining is left as it is"), so no drain is started and no callback will ever
     * come for it; the old drain's end (or bound) is heeded only for the old state. Shard 3 stays
     * Draining (belief) for good: never moved, never parked, and close() never completes (leftIfDone
     * waits for it). A member that stalls.
     */
    @Test
    void aSecondDrainOfAShardWhoseEarlierDrainStillRanEndsInAMoveOrAPark() {
        owned(3, 77);
        own.handOver(3, TARGET);
        own.memberEnded(StopReason.LOST);
        member = Optional.of(memberTenure(new Fence(90)));
        own.claim(3, new Fence(90));
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(91), new Fence(90)));
        assertEquals(Set.of(3), own.believed(member));

        own.handOver(3, TARGET); // the second tenure's drain
        drainThreads.get(0).run(); // the first drain returns now
        loop.runDue();
        for (int i = 0; i < 3; i++) {
            loop.advance(TTL);
            own.detachParked(loop.nanoTime());
            drainThreads.subList(1, drainThreads.size()).forEach(Runnable::run);
            loop.runDue();
        }

        assertEquals(Set.of(), own.believed(member), "the second drain never ends: " + record);
        assertTrue(record.stream().anyMatch(line -> line.startsWith("move 3 at 91") || line.equals("detach 3 at 91")),
                record.toString());
    }

    /**
     * Interleaving: A's drain of shard 3 (owned at 77) overruns: parked, "attached here, owned by
     * nobody" for a TTL so that nobody else owns it while the abandoned drain may act (as an overrun
     * yield keeps a kept lease). dagnats is slow, A's member deadline passes (memberEnded forgets
     * the Parked state) and the renew succeeds in the same tenure; the view shows 3 here at 77, A
     * confirms, the attach is granted at 77 and refused (spent, ece5915), and the refusal detaches 3
     * at once: B may attach it within a moment, while the abandoned drain may still act at 77. The
     * park's TTL is cut short.
     */
    @Test
    void aParkedShardIsNotDetachedBeforeItsWaitIsOverWhenItsGrantIsRefused() {
        owned(3, 77);
        own.handOver(3, TARGET);
        loop.advance(TTL); // the drain's bound passes: parked for a TTL
        own.memberEnded(StopReason.DEADLINE_PASSED);
        own.confirm(3, TENURE, 77);
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(77), TENURE));

        assertFalse(record.contains("detach 3 at 77"), "detached before the park's TTL passed: " + record);
    }
}
