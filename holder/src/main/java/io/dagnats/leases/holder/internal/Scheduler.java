package io.dagnats.leases.holder.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The one thread a {@code LeaseKeeper} (or a {@code ShardSet}) changes its state on:
 * tasks run one at a time, in order. Delays are on the same monotonic clock as the deadlines.
 */
public interface Scheduler extends Executor {

    /** Runs {@code task} after {@code delayNanos}, unless shut down by then. */
    void schedule(Runnable task, long delayNanos);

    boolean isShutdown();

    static Scheduler of(ScheduledExecutorService executor) {
        return new Scheduler() {
            @Override
            public void execute(Runnable task) {
                try {
                    executor.execute(task);
                } catch (RejectedExecutionException shutDown) {
                    // the holder is closed: nothing of it runs any more
                }
            }

            @Override
            public void schedule(Runnable task, long delayNanos) {
                try {
                    executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException shutDown) {
                    // the holder is closed: nothing of it runs any more
                }
            }

            @Override
            public boolean isShutdown() {
                return executor.isShutdown();
            }
        };
    }
}
