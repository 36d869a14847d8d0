package io.dagnats.leases.acceptance.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.acceptance.harness.Opened;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import io.dagnats.leases.protocol.Answers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Review of issue 12 (second round, branch review12b): the holder-level close paths of a
 * shard set whose drain is running. {@link ShardListener#drain} says "this process still
 * owns the shard while draining", and ADR-031 says a drain's shard is released only after
 * the drain returns (or, past its bound, left to its TTL). Each replica records, as its own
 * view, the tenure it handed {@code drain} while inside it; the next replica's grant is
 * checked against that record.
 */
class ShardSetCloseAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(6);
    private static final Duration DRAIN_BOUND = Duration.ofSeconds(5);
    /** The user's flush: well inside the bound and inside the drain's tenure (TTL 6 s, renewed every 2 s). */
    private static final Duration FLUSH = Duration.ofMillis(2_000);

    private final Opened opened = new Opened();

    @AfterEach
    void stop() throws Exception {
        opened.close();
    }

    /**
     * An application leaves on two threads at once, as shutdown code often does: one closes the
     * shard set ({@code set.close()}, which drains), another closes the holder (a shutdown hook, a
     * DI container). The holder's close calls {@code ShardSet.close()}, which returns at once the
     * second time ("closing twice does nothing"), and then releases every lease the holder still
     * keeps, the shard being drained included. The next replica is granted the shard while the
     * old one is still inside {@code drain}, under a tenure that reads as acting as owner.
     */
    @Test
    void closingTheHolderWhileItsSetDrainsDoesNotGiveTheShardAwayBeforeTheDrainReturns() throws Exception {
        Replica leaving = new Replica("review12b-close-a", "review12b-close");
        Polling.until(Duration.ofSeconds(20), "the first replica to own the shard", leaving.set::owned,
                owned -> owned.equals(Set.of(0)));
        Replica staying = new Replica("review12b-close-b", "review12b-close");
        staying.peer = leaving;
        staying.awaitMember();

        Thread setCloser = new Thread(leaving.set::close, "review12b-set-close");
        setCloser.start();
        Polling.until(Duration.ofSeconds(10), "the leaving replica to be inside drain(0)", () -> leaving.draining.keySet(),
                draining -> draining.contains(0));
        Thread holderCloser = new Thread(leaving.holder::close, "review12b-holder-close");
        holderCloser.start();

        Polling.until(Duration.ofSeconds(20), "the staying replica to own the shard", staying.set::owned,
                owned -> owned.equals(Set.of(0)));
        setCloser.join(20_000);
        holderCloser.join(20_000);

        assertEquals(List.of(), staying.overlaps, "granted while the leaving replica still drained the shard");
    }

    /**
     * A holder closed from a thread that has been interrupted (an executor shutting down with
     * shutdownNow, a JVM shutdown sequence that interrupts workers). ADR-031: "Closing the set or
     * the holder ... drains and releases every shard". The set's close gives up waiting at once,
     * shuts its loop down (interrupting the drain it is running, or dropping it), and the holder
     * then releases the shard lease itself: the drain is skipped or cut short, or it still runs
     * when the next replica is granted the shard.
     */
    @Test
    void aHolderClosedFromAnInterruptedThreadStillDrainsBeforeTheShardIsGranted() throws Exception {
        Replica leaving = new Replica("review12b-intr-a", "review12b-intr");
        Polling.until(Duration.ofSeconds(20), "the first replica to own the shard", leaving.set::owned,
                owned -> owned.equals(Set.of(0)));
        Replica staying = new Replica("review12b-intr-b", "review12b-intr");
        staying.peer = leaving;
        staying.awaitMember();

        Thread closer = new Thread(() -> {
            Thread.currentThread().interrupt();
            leaving.holder.close();
        }, "review12b-interrupted-close");
        closer.start();
        closer.join(30_000);

        Polling.until(Duration.ofSeconds(20), "the staying replica to own the shard", staying.set::owned,
                owned -> owned.equals(Set.of(0)));
        List<String> problems = new ArrayList<>(staying.overlaps);
        if (!leaving.flushed.contains(0)) {
            problems.add("shard 0 was released without its drain flushing: drain calls " + leaving.drainLog);
        }
        assertEquals(List.of(), problems);
    }

    /** One replica in this process; its drain flushes for {@link #FLUSH} unless interrupted. */
    private final class Replica implements ShardListener {
        final LeaseHolder holder;
        final ShardSet set;
        /** Shards this replica is inside drain() of, with the tenure drain() was given: its own record. */
        final ConcurrentHashMap<Integer, Tenure> draining = new ConcurrentHashMap<>();
        final Set<Integer> flushed = ConcurrentHashMap.newKeySet();
        final List<String> drainLog = new CopyOnWriteArrayList<>();
        final List<String> overlaps = new CopyOnWriteArrayList<>();
        volatile Replica peer;

        Replica(String id, String setName) throws Exception {
            holder = opened.holder(service.nats.url(), id);
            set = holder.shards(setName, 1, TTL, DRAIN_BOUND, this);
        }

        /** Waits until this replica's member lease is held, and a moment for its set to look. */
        void awaitMember() {
            LeaseKey member = new LeaseKey(set.name() + "-member-" + holder.id().value());
            Polling.until(Duration.ofSeconds(10), holder.id() + " to be a member",
                    () -> holder.client().owner(member).join(), owner -> owner instanceof Answers.Owner.Held);
            for (int i = 0; i < 10; i++) {
                Polling.pause();
            }
        }

        @Override
        public void shardAssigned(int shard, Tenure tenure) {
            Replica other = peer;
            if (other == null) {
                return;
            }
            Tenure drained = other.draining.get(shard);
            if (drained != null && drained.actingAsOwner(MonotonicClock.SYSTEM.nanoTime())) {
                overlaps.add("shard " + shard + " granted to " + holder.id() + " (start " + tenure.start() + ") while "
                        + other.holder.id() + " is inside drain() under fence " + drained.fence() + " with "
                        + drained.nanosLeft(MonotonicClock.SYSTEM.nanoTime()) / 1_000_000 + " ms of tenure left");
            }
        }

        @Override
        public void drain(int shard, Tenure tenure, Duration bound) {
            draining.put(shard, tenure);
            drainLog.add("drain(" + shard + ") began");
            try {
                Thread.sleep(FLUSH.toMillis());
                flushed.add(shard);
                drainLog.add("drain(" + shard + ") flushed");
            } catch (InterruptedException interrupted) {
                drainLog.add("drain(" + shard + ") interrupted before it flushed");
                Thread.currentThread().interrupt();
            } finally {
                draining.remove(shard);
            }
        }

        @Override
        public void shardRevoked(int shard, OwnershipListener.StopReason why) {
        }
    }
}
