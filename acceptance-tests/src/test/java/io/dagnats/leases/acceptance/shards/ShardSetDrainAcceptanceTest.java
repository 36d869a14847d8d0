package io.dagnats.leases.acceptance.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.acceptance.harness.Opened;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Drains and departures of shard sets, the faults {@link ShardSetAcceptanceTest} does not make:
 * a drain stuck past its bound, a leaving replica's shards, drains at once. Found by the review
 * of issue 12; each test states what it shows.
 */
class ShardSetDrainAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final Duration DRAIN_BOUND = Duration.ofMillis(300);

    private final Opened opened = new Opened();
    private final CountDownLatch endOfTest = new CountDownLatch(1);

    @AfterEach
    void stop() throws Exception {
        endOfTest.countDown();
        opened.close();
    }

    /**
     * {@link ShardListener#drain} says "this process still owns the shard while draining". A drain
     * that overruns its bound (a GC pause in it is enough) is not interrupted, and the set releases
     * the lease anyway: the next replica is given the shard while the old one is still inside its
     * drain, holding a tenure that still reads as acting as owner. {@code LeaseKeeper} handles the
     * same case for forward handlers the other way: it does not release, it lets the TTL free the key.
     */
    @Test
    void noReplicaIsGivenAShardWhileAnotherStillDrainsIt() throws Exception {
        String set = "review-drain";
        Replica first = new Replica("review-drain-a", set, 2, DRAIN_BOUND, this::stuck);
        Polling.until(Duration.ofSeconds(20), "the first replica to own both shards", first.set::owned,
                owned -> owned.equals(Set.of(0, 1)));

        Replica second = new Replica("review-drain-b", set, 2, DRAIN_BOUND, this::stuck);
        Polling.until(Duration.ofSeconds(20), "the second replica to be given a shard", second.set::owned,
                owned -> owned.size() == 1);

        assertEquals(List.of(), second.overlaps, "given while the first replica was still inside drain(shard)");
        int handedOver = second.set.owned().iterator().next();
        assertEquals(OwnershipListener.StopReason.ABANDONED, first.revokedWhy.get(handedOver),
                "the overrun drain's shard was never released: the first replica is told so");
    }

    /**
     * A replica that leaves (close, as on SIGTERM in a rolling restart) drains and releases its
     * shards one at a time and only then releases its member lease. Until that last release the
     * others count it as a member, so none of them is under its quota and none takes the shards
     * it has already released: with k shards and drains of d each, the first one released stays
     * unowned for about (k - 1) * d while live members could take it (45 s for 4 shards of 15 s
     * drains, the default bound being the TTL). Releasing the member lease first would let the
     * others take each shard as its release event arrives, as issue 12 asks.
     */
    @Test
    void aShardReleasedByALeavingReplicaIsTakenAtOnceByALiveOneUnderItsShare() throws Exception {
        String set = "review-leave";
        Duration flush = Duration.ofMillis(1_500);
        Replica leaving = new Replica("review-leave-a", set, 4, Duration.ofSeconds(5), (shard, tenure) -> work(flush));
        Polling.until(Duration.ofSeconds(20), "the first replica to own every shard", leaving.set::owned,
                owned -> owned.size() == 4);
        Replica staying = new Replica("review-leave-b", set, 4, Duration.ofSeconds(5), (shard, tenure) -> work(flush));
        Polling.until(Duration.ofSeconds(30), "two each", () -> leaving.set.owned().size() + "/" + staying.set.owned().size(),
                "2/2"::equals);

        Set<Integer> leavingOwned = leaving.set.owned();
        Thread closer = new Thread(leaving.set::close, "review-leave-close");
        closer.start();
        Polling.until(Duration.ofSeconds(30), "the staying replica to own every shard", staying.set::owned,
                owned -> owned.size() == 4);
        closer.join(30_000);

        List<String> late = new ArrayList<>();
        for (int shard : leavingOwned) {
            long unownedMillis = (staying.assignedAt.get(shard) - leaving.revokedAt.get(shard)) / 1_000_000;
            if (unownedMillis > 1_000) {
                late.add("shard " + shard + " unowned for " + unownedMillis + " ms");
            }
        }
        assertEquals(List.of(), late, "released shards left unowned while a live member was under its share");
        for (int shard : leavingOwned) {
            assertEquals(OwnershipListener.StopReason.RELEASED, leaving.revokedWhy.get(shard), "drained in time");
        }
    }

    /**
     * A replica that leaves drains its shards at once, not one after the other: with k
     * shards and drains of d each, the last shard would otherwise wait (k - 1) * d before
     * its drain even began. Each drain here waits (up to 4 s) for the other to be running.
     */
    @Test
    void aLeavingReplicaDrainsItsShardsAtOnce() throws Exception {
        CountDownLatch bothDraining = new CountDownLatch(2);
        List<String> alone = new CopyOnWriteArrayList<>();
        Replica leaving = new Replica("review-parallel-a", "review-parallel", 2, Duration.ofSeconds(8),
                (shard, tenure) -> {
                    bothDraining.countDown();
                    try {
                        if (!bothDraining.await(4, TimeUnit.SECONDS)) {
                            alone.add("shard " + shard + " drained while the other shard's drain was not running");
                        }
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                    }
                });
        Polling.until(Duration.ofSeconds(20), "the replica to own both shards", leaving.set::owned,
                owned -> owned.equals(Set.of(0, 1)));

        leaving.set.close();

        assertEquals(0, bothDraining.getCount(), "both shards were drained");
        assertEquals(List.of(), alone);
    }

    /** The user's flush: takes {@code flush}, as real work would. */
    private static void work(Duration flush) {
        try {
            Thread.sleep(flush.toMillis());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A drain stuck past its bound: blocks until the test ends. */
    private void stuck(int shard, Tenure tenure) {
        try {
            endOfTest.await();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private interface DrainWork {
        void drain(int shard, Tenure tenure);
    }

    /** One replica in this process, with a drain of its own. */
    private final class Replica implements ShardListener {
        final LeaseHolder holder;
        final ShardSet set;
        /** Shards this replica is inside drain() of, with the tenure drain() was given. */
        final ConcurrentHashMap<Integer, Tenure> draining = new ConcurrentHashMap<>();
        final List<String> overlaps = new CopyOnWriteArrayList<>();
        final ConcurrentHashMap<Integer, Long> assignedAt = new ConcurrentHashMap<>();
        final ConcurrentHashMap<Integer, Long> revokedAt = new ConcurrentHashMap<>();
        final ConcurrentHashMap<Integer, OwnershipListener.StopReason> revokedWhy = new ConcurrentHashMap<>();
        final DrainWork drainWork;
        Replica other;

        Replica(String id, String setName, int shards, Duration drainBound, DrainWork drainWork) throws Exception {
            this.drainWork = drainWork;
            holder = opened.holder(service.nats.url(), id);
            Replica before = replicas.isEmpty() ? null : replicas.get(replicas.size() - 1);
            replicas.add(this);
            if (before != null) {
                before.other = this;
                this.other = before;
            }
            set = holder.shards(setName, shards, TTL, drainBound, this);
        }

        @Override
        public void shardAssigned(int shard, Tenure tenure) {
            assignedAt.put(shard, System.nanoTime());
            Replica peer = other;
            if (peer != null) {
                Tenure drained = peer.draining.get(shard);
                if (drained != null) {
                    overlaps.add("shard " + shard + ": " + peer.holder.id() + " still drains it under fence "
                            + drained.fence() + ", which reads as acting as owner: "
                            + drained.actingAsOwner(System.nanoTime()));
                }
            }
        }

        @Override
        public void drain(int shard, Tenure tenure, Duration bound) {
            draining.put(shard, tenure);
            try {
                drainWork.drain(shard, tenure);
            } finally {
                draining.remove(shard);
            }
        }

        @Override
        public void shardRevoked(int shard, OwnershipListener.StopReason why) {
            revokedAt.put(shard, System.nanoTime());
            revokedWhy.put(shard, why);
        }
    }

    private final List<Replica> replicas = new ArrayList<>();
}
