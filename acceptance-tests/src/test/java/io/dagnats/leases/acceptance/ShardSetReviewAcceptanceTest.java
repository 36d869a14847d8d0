package io.dagnats.leases.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Review of issue 12's shard sets: faults the merged acceptance tests do not make.
 * Each test states what it shows; a failure here is a finding, not flakiness.
 */
class ShardSetReviewAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final Duration DRAIN_BOUND = Duration.ofMillis(300);

    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private final CountDownLatch endOfTest = new CountDownLatch(1);

    @AfterEach
    void stop() throws Exception {
        endOfTest.countDown();
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
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
        Replica first = new Replica("review-drain-a", set, 2);
        Polling.until(Duration.ofSeconds(20), "the first replica to own both shards", first.set::owned,
                owned -> owned.equals(Set.of(0, 1)));

        Replica second = new Replica("review-drain-b", set, 2);
        Polling.until(Duration.ofSeconds(20), "the second replica to be given a shard", second.set::owned,
                owned -> owned.size() == 1);

        assertEquals(List.of(), second.overlaps, "given while the first replica was still inside drain(shard)");
    }

    /** One replica in this process; its drain blocks until the test ends (a drain stuck past its bound). */
    private final class Replica implements ShardListener {
        final LeaseHolder holder;
        final ShardSet set;
        /** Shards this replica is inside drain() of, with the tenure drain() was given. */
        final ConcurrentHashMap<Integer, Tenure> draining = new ConcurrentHashMap<>();
        final List<String> overlaps = new CopyOnWriteArrayList<>();
        Replica other;

        Replica(String id, String setName, int shards) throws Exception {
            Connection connection = Nats.connect(service.nats.url());
            cleanup.add(connection::close);
            holder = LeaseHolder.builder(connection).holderId(id).build();
            cleanup.add(holder);
            Replica before = replicas.isEmpty() ? null : replicas.get(replicas.size() - 1);
            replicas.add(this);
            if (before != null) {
                before.other = this;
                this.other = before;
            }
            set = holder.shards(setName, shards, TTL, DRAIN_BOUND, this);
        }

        @Override
        public void shardAssigned(int shard, Tenure tenure) {
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
                endOfTest.await();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            } finally {
                draining.remove(shard);
            }
        }

        @Override
        public void shardRevoked(int shard, OwnershipListener.StopReason why) {
        }
    }

    private final List<Replica> replicas = new ArrayList<>();
}
