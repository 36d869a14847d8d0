package io.dagnats.leases.acceptance.harness;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Waits on a condition with a deadline, never for a fixed time. */
public final class Polling {

    private Polling() {
    }

    /** Polls {@code probe} until it answers something that satisfies {@code done}, and returns that. */
    public static <T> T until(Duration limit, String what, Supplier<T> probe, Predicate<T> done) {
        long deadline = System.nanoTime() + limit.toNanos();
        T last = null;
        while (System.nanoTime() < deadline) {
            last = probe.get();
            if (done.test(last)) {
                return last;
            }
            pause();
        }
        throw new AssertionError("timed out after " + limit + " waiting for " + what + "; last seen: " + last);
    }

    /** The poll interval. */
    public static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }
}
