package io.dagnats.leases.adapters.nats;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The requests taken and not yet answered, so a stop can wait for them (the drain). */
final class InFlight {

    private final AtomicInteger count = new AtomicInteger();
    private final Object idle = new Object();

    /** A request was taken. */
    void enter() {
        count.incrementAndGet();
    }

    /** A request was answered (or given up on). */
    void exit() {
        if (count.decrementAndGet() == 0) {
            synchronized (idle) {
                idle.notifyAll();
            }
        }
    }

    /**
     * Waits up to {@code timeout} for every request taken to be answered.
     *
     * @return true when none is left in flight
     */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (idle) {
            while (count.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(idle, left);
            }
        }
        return true;
    }
}
