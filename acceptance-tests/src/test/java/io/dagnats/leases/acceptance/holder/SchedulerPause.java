package io.dagnats.leases.acceptance.holder;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;

/**
 * A GC pause, staged: a holder built on a single-thread scheduler runs nothing
 * (no renew, no deadline check) until the pause is woken.
 */
final class SchedulerPause {

    private SchedulerPause() {
    }

    /** Blocks {@code scheduler}'s only thread; count the returned latch down to wake it. */
    static CountDownLatch block(Executor scheduler) {
        CountDownLatch wake = new CountDownLatch(1);
        scheduler.execute(() -> {
            try {
                wake.await();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        });
        return wake;
    }
}
