package io.dagnats.leases.acceptance.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.acceptance.harness.Opened;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import io.dagnats.leases.protocol.Answers;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * ADR-031's argument for abandoning an
 * overrun drain's shard is that "the server's TTL frees the key, which happens only after that
 * tenure's deadline". But the abandoned key stays held under this replica's holder id, and an
 * acquire by the same holder id is granted the earlier write: when the set campaigns for the
 * shard again (a member left), it owns it again at once, and giving it up a second time (a member
 * joined) releases it, long before the TTL, while the first drain still runs under its tenure.
 */
class ShardSetRegrantAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(9);
    private static final Duration DRAIN_BOUND = Duration.ofMillis(1_000);

    private final Opened opened = new Opened();
    /** The tenure replica a's first drain of shard 1 was given, while that drain runs: a's own record. */
    private final AtomicReference<Tenure> firstDrain = new AtomicReference<>();
    private final AtomicInteger drainCalls = new AtomicInteger();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<String> overlaps = new CopyOnWriteArrayList<>();
    private volatile boolean endOfTest;
    private volatile long assignedAt0;

    @AfterEach
    void stop() throws Exception {
        endOfTest = true;
        opened.close();
    }

    /**
     * SAFETY. a owns shards 0 and 1; b joins, a drains shard 1 and the drain overruns its 300 ms
     * bound: it ignores the interrupt but works only while the tenure it was given reads as acting
     * as owner ("work that checks tenure ... stays safe"), so a abandons shard 1 to its TTL. b
     * leaves at once (a rolling restart): a campaigns for shard 1 again and is granted its own
     * earlier write. c joins: a gives shard 1 up again, its second drain returns at once, a
     * releases, and c is granted shard 1 while a's first drain still runs under a live tenure.
     */
    @Test
    void aShardAbandonedToItsTtlIsNotGivenToAnotherReplicaBeforeTheAbandonedDrainsTenureEnds() throws Exception {
        // Shard 1's renewals must not fall inside the drain (their events would re-mark it as a's), so
        // a takes shard 1 half a look period after its looks: a squatter holds it until then.
        LeaseKey shard1 = new LeaseKey("regrant-shard-1");
        Connection squatterNats = opened.nats(service.nats.url());
        LeaseClient squatter = new LeaseClient(squatterNats);
        Answers.Acquire squatted = squatter.acquire(shard1, new HolderId("squatter"),
                new LeaseTtl(60_000)).join();
        Replica a = new Replica("regrant-a", new FirstDrainOverruns());
        Polling.until(Duration.ofSeconds(20), "a to own shard 0", a.set::owned, owned -> owned.equals(Set.of(0)));
        long lookPhase = assignedAt0;
        Polling.until(Duration.ofSeconds(10), "half a look period", () -> System.nanoTime() - lookPhase,
                elapsed -> elapsed >= TTL.toNanos() / 6);
        squatter.release(shard1, new HolderId("squatter"), squatted.lease().revision()).join();
        Polling.until(Duration.ofSeconds(20), "a to own both shards", a.set::owned, owned -> owned.equals(Set.of(0, 1)));

        Replica b = new Replica("regrant-b", new Quiet());
        Polling.until(Duration.ofSeconds(20), "a's first drain of shard 1 to begin", () -> List.copyOf(log),
                seen -> seen.stream().anyMatch(line -> line.startsWith("first drain began")));
        b.set.close();
        log.add("b left at " + System.nanoTime() / 1_000_000);
        Polling.until(Duration.ofSeconds(20), "a to be assigned shard 1 a second time", () -> List.copyOf(log),
                seen -> seen.stream().filter(line -> line.startsWith("a assigned 1 ")).count() == 2);

        Replica c = new Replica("regrant-c", new Quiet() {
            @Override
            public void shardAssigned(int shard, Tenure tenure) {
                Tenure drained = firstDrain.get();
                long now = MonotonicClock.SYSTEM.nanoTime();
                if (shard == 1 && drained != null && drained.actingAsOwner(now)) {
                    overlaps.add("shard 1 granted to c (start " + tenure.start() + ") while a's first drain runs under fence "
                            + drained.fence() + " with " + drained.nanosLeft(now) / 1_000_000 + " ms of tenure left");
                }
            }
        });
        Polling.until(Duration.ofSeconds(30), "c to own shard 1", c.set::owned, owned -> owned.contains(1));
        log.add("c owns shard 1 at " + System.nanoTime() / 1_000_000);

        assertEquals(List.of(), overlaps, "log: " + log);
    }

    /** The first drain of shard 1 ignores its interrupt and works while its tenure lasts; the others return at once. */
    private final class FirstDrainOverruns extends Quiet {
        @Override
        public void shardAssigned(int shard, Tenure tenure) {
            if (shard == 0) {
                assignedAt0 = System.nanoTime();
            }
            log.add("a assigned " + shard + " start " + tenure.start() + " at " + System.nanoTime() / 1_000_000);
        }

        @Override
        public void shardRevoked(int shard, OwnershipListener.StopReason why) {
            log.add("a revoked " + shard + " " + why + " at " + System.nanoTime() / 1_000_000);
        }

        @Override
        public void drain(int shard, Tenure tenure, Duration bound) {
            if (shard != 1 || drainCalls.incrementAndGet() != 1) {
                log.add("drain(" + shard + ") returned at once");
                return;
            }
            firstDrain.set(tenure);
            log.add("first drain began under " + tenure.start() + "/" + tenure.fence() + " at " + System.nanoTime() / 1_000_000);
            try {
                while (!endOfTest && tenure.actingAsOwner(MonotonicClock.SYSTEM.nanoTime())) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException interrupted) {
                        log.add("first drain interrupted at " + System.nanoTime() / 1_000_000 + " with "
                                + tenure.nanosLeft(MonotonicClock.SYSTEM.nanoTime()) / 1_000_000 + " ms left");
                    }
                }
            } finally {
                firstDrain.set(null);
                log.add("first drain ended at " + System.nanoTime() / 1_000_000);
            }
        }
    }

    private static class Quiet implements ShardListener {
        @Override
        public void shardAssigned(int shard, Tenure tenure) {
        }

        @Override
        public void shardRevoked(int shard, OwnershipListener.StopReason why) {
        }
    }

    private final class Replica {
        final ShardSet set;
        final LeaseHolder holder;

        Replica(String id, ShardListener listener) throws Exception {
            holder = opened.holder(service.nats.url(), id);
            set = holder.shards("regrant", 2, TTL, DRAIN_BOUND, listener);
        }
    }
}
