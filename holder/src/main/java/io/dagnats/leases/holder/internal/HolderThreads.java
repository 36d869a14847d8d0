package io.dagnats.leases.holder.internal;

import io.dagnats.leases.domain.HolderId;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A holder's two threads: the scheduler that campaigns, renews and runs the follow rules, and
 * the one thread listeners are told on, so that a slow listener delays no renewal. Both start with
 * the holder, not on their first task: a waiting replica's first {@code becameOwner} would otherwise
 * pay for starting a thread inside the leaderless gap.
 */
public final class HolderThreads {

    private final ScheduledExecutorService executor;
    private final ExecutorService listeners;
    private final Scheduler scheduler;

    /** @param given a single-threaded scheduler the user handed the holder, or null for a daemon thread of its own */
    public HolderThreads(HolderId id, ScheduledExecutorService given) {
        if (given != null) {
            this.executor = given;
        } else {
            ScheduledThreadPoolExecutor own = new ScheduledThreadPoolExecutor(1, Daemons.named("dagnats-holder-" + id));
            own.prestartCoreThread();
            this.executor = own;
        }
        ThreadPoolExecutor listening = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                Daemons.named("dagnats-listener-" + id));
        listening.prestartCoreThread();
        this.listeners = listening;
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
