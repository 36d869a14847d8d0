package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.internal.ManualScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Drains end exactly once, on the loop, without the loop waiting for them: drained
 * when the listener returns within the bound, overran when the bound passes first;
 * never two drains of one shard at once, a later one runs once the earlier has ended.
 * The drain "threads" here run when the test says, on its own thread.
 */
class ShardDrainsTest {

    private static final Duration BOUND = Duration.ofSeconds(2);

    private final ManualScheduler loop = new ManualScheduler();
    private final Map<Integer, Runnable> drainThreads = new HashMap<>();
    private final List<String> ends = new ArrayList<>();
    private final List<Integer> drainCalls = new ArrayList<>();
    private int nextShard;
    private final ShardDrains drains = new ShardDrains("rvs", new ShardListener() {
        @Override
        public void shardAssigned(int shard, Tenure tenure) {
        }

        @Override
        public void drain(int shard, Tenure tenure, Duration bound) {
            drainCalls.add(shard);
        }

        @Override
        public void shardRevoked(int shard, StopReason why) {
        }
    }, BOUND, loop, loop, runnable -> {
        drainThreads.put(nextShard, runnable);
        return new Thread(() -> { });
    });

    private void start(int shard) {
        nextShard = shard;
        drains.start(shard, new Tenure(new LeaseKey("rvs-shard-" + shard), new HolderId("me"), new Fence(7),
                new Fence(7), loop.nanoTime() + BOUND.toNanos() * 3),
                done -> ends.add("drained " + done), over -> ends.add("overran " + over));
    }

    @Test
    void aDrainThatReturnsEndsAsDrainedOnTheLoop() {
        start(0);
        drainThreads.get(0).run();
        assertEquals(List.of(), ends, "nothing ends off the loop");

        loop.runDue();
        assertEquals(List.of("drained 0"), ends);
        assertEquals(Set.of(), drains.shards());
    }

    @Test
    void eachDrainEndsOnItsOwnWithoutWaitingForAnother() {
        start(0);
        start(1);
        drainThreads.get(1).run();
        loop.runDue();
        assertEquals(List.of("drained 1"), ends);
        assertEquals(Set.of(0), drains.shards());
    }

    @Test
    void aDrainPastItsBoundOverrunsOnceAndItsLateReturnIsNoDrain() {
        start(0);
        loop.advance(BOUND);
        assertEquals(List.of("overran 0"), ends);

        drainThreads.get(0).run();
        loop.runDue();
        assertEquals(List.of("overran 0"), ends);
        assertTrue(!drains.isDraining(0));
    }

    @Test
    void aLateReturnOfAnOverrunDrainDoesNotEndALaterDrainOfTheSameShard() {
        start(0);
        Runnable first = drainThreads.get(0);
        loop.advance(BOUND);
        start(0);

        first.run();
        loop.runDue();
        assertEquals(List.of("overran 0"), ends);
        assertTrue(drains.isDraining(0));
    }

    @Test
    void aSecondDrainOfAShardStillDrainingWaitsForTheFirstThenRuns() {
        start(0);
        Runnable first = drainThreads.get(0);
        start(0);
        assertEquals(Set.of(0), drains.shards());

        first.run();
        loop.runDue();
        assertEquals(List.of(0), drainCalls, "never two drains of a shard at once");
        assertEquals(List.of("drained 0"), ends);
        assertTrue(drains.isDraining(0), "the second drain runs once the first has ended");

        drainThreads.get(0).run();
        loop.runDue();
        assertEquals(List.of(0, 0), drainCalls);
        assertEquals(List.of("drained 0", "drained 0"), ends);
        assertEquals(Set.of(), drains.shards());
    }

    @Test
    void aSecondDrainOfAShardRunsOnceTheFirstOverran() {
        start(0);
        start(0);
        loop.advance(BOUND);
        assertEquals(List.of("overran 0"), ends);
        assertTrue(drains.isDraining(0));

        loop.advance(BOUND);
        assertEquals(List.of("overran 0", "overran 0"), ends, "the second drain ends too");
        assertEquals(Set.of(), drains.shards());
    }
}
