package io.dagnats.leases.adapters.nats;

import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Fails requests that are still unanswered at their deadline, with a
 * {@link TimeoutException}, at most one tick (a twentieth of the timeout,
 * 1 to 50 ms) late. One sweep of everything in flight per tick, on one timer
 * thread for the process, and no sweep while nothing is in flight: a timer
 * task per request ({@code CompletableFuture.orTimeout}) woke the timer
 * thread on every request at one client and contended on its queue at 64
 * (the profile in docs/benchmarks.md). A request that completes is dropped
 * at the next sweep, so what is kept is at most a tick's worth of them.
 */
final class RequestDeadlines {

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "dagnats-deadlines");
        thread.setDaemon(true);
        return thread;
    });
    private static final long MIN_TICK = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MAX_TICK = TimeUnit.MILLISECONDS.toNanos(50);

    private record Watched(CompletableFuture<?> request, long deadline) {
    }

    private final long timeoutNanos;
    private final long tickNanos;
    private final ConcurrentLinkedQueue<Watched> watched = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean armed = new AtomicBoolean();

    /**
     * @param timeout every request's timeout, unless {@link #watch(CompletableFuture, Duration)} names
     *                its own; a tick is a twentieth of it (1 to 50 ms), so give the shortest one expected
     */
    RequestDeadlines(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
        this.tickNanos = Math.max(MIN_TICK, Math.min(MAX_TICK, timeoutNanos / 20));
    }

    /** Fails {@code request} with a {@link TimeoutException} if it is not complete by the timeout from now. */
    <T> CompletableFuture<T> watch(CompletableFuture<T> request) {
        return watch(request, timeoutNanos);
    }

    /** Fails {@code request} with a {@link TimeoutException} if it is not complete by {@code timeout} from now. */
    <T> CompletableFuture<T> watch(CompletableFuture<T> request, Duration timeout) {
        return watch(request, timeout.toNanos());
    }

    private <T> CompletableFuture<T> watch(CompletableFuture<T> request, long nanos) {
        watched.add(new Watched(request, System.nanoTime() + nanos));
        arm();
        return request;
    }

    private void arm() {
        if (!armed.get() && armed.compareAndSet(false, true)) {
            TIMER.schedule(this::sweep, tickNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void sweep() {
        long now = System.nanoTime();
        for (Iterator<Watched> each = watched.iterator(); each.hasNext();) {
            Watched next = each.next();
            if (next.request().isDone()) {
                each.remove();
            } else if (now - next.deadline() >= 0) {
                each.remove();
                next.request().completeExceptionally(new TimeoutException());
            }
        }
        armed.set(false);
        if (!watched.isEmpty()) {
            arm(); // whatever was added meanwhile, or is still in flight
        }
    }
}
