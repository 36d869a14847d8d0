package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.internal.Scheduler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadFactory;
import java.util.function.IntConsumer;

/**
 * The drains of one shard set in progress. Each drain runs the listener's
 * {@link ShardListener#drain} on a thread of its own, and ends exactly once, on the
 * set's loop: <em>drained</em> when the listener returns (or throws) within the
 * bound, <em>overran</em> when the bound passes first. Nothing here waits: the loop
 * goes on deciding while shards drain, and each drain's end comes as a task of its
 * own, so a shard is released as soon as its own drain returns. An overrun drain's
 * thread is interrupted after its end has been handled (ownership has ended by then).
 * A second drain of a shard whose earlier drain has not ended (its member's belief ended
 * meanwhile and the shard was owned again) waits for it and then runs: two drains of one shard
 * never run at once, and every drain started ends.
 * Loop only, except the drain threads themselves.
 */
final class ShardDrains {

    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.ShardDrains");

    /** One drain; {@code token} tells it from a later drain of the same shard. */
    private record Drain(Thread thread, long startedAt, Object token) {
    }

    private final String set;
    private final ShardListener listener;
    private final Duration bound;
    private final Scheduler loop;
    private final MonotonicClock clock;
    private final ThreadFactory threads;
    private final Map<Integer, Drain> running = new HashMap<>();
    /** Per shard, the drains asked for while an earlier one of it still ran, in the order asked. */
    private final Map<Integer, Queue<Runnable>> waiting = new HashMap<>();

    ShardDrains(String set, ShardListener listener, Duration bound, Scheduler loop, MonotonicClock clock,
            ThreadFactory threads) {
        this.set = set;
        this.listener = listener;
        this.bound = bound;
        this.loop = loop;
        this.clock = clock;
        this.threads = threads;
    }

    /**
     * Starts draining {@code shard}, owned under {@code tenure}; later, on the loop, calls
     * {@code drained} or {@code overran} with it, once. A shard already draining is drained again
     * once its earlier drain has ended (returned or overran).
     */
    void start(int shard, Tenure tenure, IntConsumer drained, IntConsumer overran) {
        if (running.containsKey(shard)) {
            waiting.computeIfAbsent(shard, first -> new ArrayDeque<>()).add(() -> start(shard, tenure, drained, overran));
            return;
        }
        Object token = new Object();
        Thread thread = threads.newThread(() -> {
            try {
                listener.drain(shard, tenure, bound);
            } catch (RuntimeException failed) {
                LOG.log(System.Logger.Level.WARNING, "the drain of shard " + shard + " of " + set + " failed: " + failed);
            } finally {
                loop.execute(() -> end(shard, token, drained));
            }
        });
        Drain drain = new Drain(thread, clock.nanoTime(), token);
        running.put(shard, drain);
        loop.schedule(() -> {
            if (running.get(shard) == drain) {
                running.remove(shard);
                LOG.log(System.Logger.Level.WARNING, "the drain of shard " + shard + " of " + set + " still runs after "
                        + (clock.nanoTime() - drain.startedAt()) / 1_000_000 + " ms (bound " + bound.toMillis()
                        + " ms); it is interrupted and the shard is left to expire by its TTL");
                overran.accept(shard);
                drain.thread().interrupt();
                next(shard);
            }
        }, bound.toNanos());
        thread.start();
    }

    private void end(int shard, Object token, IntConsumer drained) {
        Drain drain = running.get(shard);
        if (drain != null && drain.token() == token) {
            running.remove(shard);
            drained.accept(shard);
            next(shard);
        }
    }

    /** Starts the drain of {@code shard} that waited for the one just ended, if any. */
    private void next(int shard) {
        Queue<Runnable> queue = waiting.get(shard);
        Runnable next = queue == null ? null : queue.poll();
        if (queue != null && queue.isEmpty()) {
            waiting.remove(shard);
        }
        if (next != null) {
            next.run();
        }
    }

    /**
     * When the drain of {@code shard} running now reaches its bound: until then it may act, and after
     * it for as long as an abandoned drain may (a TTL more, see {@link ShardHandOvers}).
     */
    Optional<Long> boundAt(int shard) {
        return Optional.ofNullable(running.get(shard)).map(drain -> drain.startedAt() + bound.toNanos());
    }

    /** The shards draining now, or waiting to drain again. */
    Set<Integer> shards() {
        Set<Integer> shards = new TreeSet<>(running.keySet());
        shards.addAll(waiting.keySet());
        return shards;
    }

    boolean isDraining(int shard) {
        return running.containsKey(shard) || waiting.containsKey(shard);
    }
}
