package io.dagnats.leases.holder.internal;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Bounded waits that an interrupt does not cut short: for closing, where giving up early
 * would release what is still in use. The interrupt is kept for the caller afterwards.
 */
public final class Waiting {

    private Waiting() {
    }

    /** Whether {@code work} ended (normally or not) within {@code bound}. */
    public static boolean uninterruptibly(Future<?> work, Duration bound) {
        return until(bound, nanos -> {
            try {
                work.get(nanos, TimeUnit.NANOSECONDS);
            } catch (ExecutionException failed) {
                // ended, by failing: its own code logged why
            } catch (TimeoutException notYet) {
                return false;
            }
            return true;
        });
    }

    /** Whether {@code executor}, shut down already, terminated within {@code bound}. */
    public static boolean uninterruptibly(ExecutorService executor, Duration bound) {
        return until(bound, nanos -> executor.awaitTermination(nanos, TimeUnit.NANOSECONDS));
    }

    private interface Wait {
        boolean waitFor(long nanos) throws InterruptedException;
    }

    private static boolean until(Duration bound, Wait wait) {
        long deadline = System.nanoTime() + bound.toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return wait.waitFor(Math.max(0, deadline - System.nanoTime()));
                } catch (InterruptedException interrupt) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
