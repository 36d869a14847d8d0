package io.dagnats.leases.holder.internal;

import java.util.concurrent.CompletableFuture;

/**
 * One forward handler call on a pooled thread. It may be interrupted only while
 * the call runs, and tells when it has finished, so a lease is released only
 * once nothing of this process still serves as its owner.
 */
public final class ForwardRun {

    private final Thread thread;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private boolean running = true;

    public ForwardRun(Thread thread) {
        this.thread = thread;
    }

    /** Interrupts the call, if it still runs. */
    synchronized void interrupt() {
        if (running) {
            thread.interrupt();
        }
    }

    /** Ends the call; an interrupt that came too late is cleared, so it never reaches the next call on the thread. */
    void finish() {
        synchronized (this) {
            running = false;
            Thread.interrupted();
        }
        finished.complete(null);
    }

    CompletableFuture<Void> finished() {
        return finished;
    }
}
