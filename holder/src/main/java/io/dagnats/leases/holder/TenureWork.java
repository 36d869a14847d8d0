package io.dagnats.leases.holder;

import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The work one tenure started, like the context client-go hands {@code OnStartedLeading}:
 * cancelled the moment this process stops acting as owner (deadline, lost, revoked, handed over,
 * closed), and waited for, up to {@link KeepOptions#handoverBound()}, before a handover or a close
 * lets the lease move. Work that ignores its cancellation past that bound keeps the lease from
 * moving: a close then leaves the key to its TTL, a yield keeps it.
 */
public interface TenureWork {

    /** Whether this tenure's ownership has ended. */
    boolean isCancelled();

    /** Runs {@code onCancel} once when the tenure ends (at once if it has ended). */
    void onCancel(Runnable onCancel);

    /**
     * Cancels {@code work} (interrupting it) when the tenure ends, and waits for its future before the
     * lease moves. A cancelled {@code FutureTask} or {@code CompletableFuture} reports done at once,
     * while its body may still run (blocked I/O ignores interrupts; a {@code CompletableFuture}'s
     * cancel stops nothing): only {@link #run} waits until the body itself has returned, so give
     * work that writes under the tenure's fence to {@link #run}.
     */
    <F extends Future<?>> F track(F work);

    /** Runs {@code work} on a thread of its own, tracked as {@link #track} does. */
    <T> Future<T> run(Callable<T> work);

    /** As {@link #run(Callable)}, for work that returns nothing (as {@code ExecutorService.submit} has both). */
    default Future<?> run(Runnable work) {
        return run(Executors.callable(work));
    }
}
