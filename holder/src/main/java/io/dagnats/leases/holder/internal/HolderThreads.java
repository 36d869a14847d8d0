package io.dagnats.leases.holder.internal;

import io.dagnats.leases.domain.HolderId;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A holder's two threads: the scheduler that campaigns, renews and runs the follow rules, and
 * the one thread listeners are told on, so that a slow listener delays no renewal.
 */
public final class HolderThreads {

    private final ScheduledExecutorService executor;
    private final ExecutorService listeners;
    private final Scheduler scheduler;

    /** @param given a single-threaded scheduler the user handed the holder, or null for a daemon thread of its own */
    public HolderThreads(HolderId id, ScheduledExecutorService given) {
        this.executor = given != null
                ? given : Executors.newSingleThreadScheduledExecutor(Daemons.named("dagnats-holder-" + id));
        this.listeners = Executors.newSingleThreadExecutor(Daemons.named("dagnats-listener-" + id));
        this.scheduler = Scheduler.of(executor);
    }

    public Scheduler scheduler() {
        return scheduler;
    }

    public ExecutorService listeners() {
        return listeners;
    }

    /** Stops the scheduler now; the listener thread first tells what it was given, as the closes told it. */
    public void stop() {
        executor.shutdownNow();
        listeners.shutdown();
    }
}
