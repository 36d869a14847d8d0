package io.dagnats.leases.holder.internal;

import io.dagnats.leases.holder.TenureWork;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The {@link TenureWork} of one belief window: made when the keeper tells the listener
 * {@code becameOwner}, cancelled (its futures interrupted, its callbacks run) when it tells
 * {@code stoppedOwning}. {@link #returned} is what a handover or a close waits for before the lease
 * moves: every tracked future done, or the bound passed (a failed stage then). A window made by
 * {@link #next} also waits for the work of the windows before it that has not returned: a yield
 * whose drain overran keeps the key so that no one else owns it while that work may act, and a
 * later handover or release must not let the key go while it still may. Thread-safe: the user's
 * threads track work while the keeper's thread cancels.
 */
public final class TenureWorks implements TenureWork {

    /** A window that never began: nothing to wait for. */
    public static final TenureWorks NONE = ended();

    private final ThreadFactory threads;
    private final List<Future<?>> tracked = new ArrayList<>();
    private final List<Runnable> onCancel = new ArrayList<>();
    /** Work of ended windows before this one that had not returned when it began: waited for, never cancelled again. */
    private final List<Future<?>> earlier;
    private boolean cancelled;

    public TenureWorks(ThreadFactory threads) {
        this(threads, List.of());
    }

    private TenureWorks(ThreadFactory threads, List<Future<?>> earlier) {
        this.threads = threads;
        this.earlier = earlier;
    }

    /**
     * The works of the window after this one (which has ended): its {@link #returned} waits for its own
     * work and for this window's and the earlier windows' work that has not returned yet.
     */
    public TenureWorks next(ThreadFactory threads) {
        List<Future<?>> unreturned = new ArrayList<>();
        synchronized (this) {
            unreturned.addAll(tracked);
        }
        unreturned.addAll(earlier);
        unreturned.removeIf(TenureWorks::hasReturned);
        return new TenureWorks(threads, List.copyOf(unreturned));
    }

    private static TenureWorks ended() {
        TenureWorks works = new TenureWorks(Daemons.named("dagnats-tenure-work"));
        works.cancel();
        return works;
    }

    @Override
    public synchronized boolean isCancelled() {
        return cancelled;
    }

    @Override
    public void onCancel(Runnable callback) {
        synchronized (this) {
            if (!cancelled) {
                onCancel.add(callback);
                return;
            }
        }
        callback.run();
    }

    @Override
    public <F extends Future<?>> F track(F work) {
        synchronized (this) {
            if (!cancelled) {
                tracked.add(work);
                return work;
            }
        }
        work.cancel(true);
        return work;
    }

    @Override
    public <T> Future<T> run(Callable<T> work) {
        ReturningTask<T> task = new ReturningTask<>(work);
        track(task);
        threads.newThread(task).start();
        return task;
    }

    /** Ends the window: every tracked future cancelled with an interrupt, every callback run once. */
    public void cancel() {
        List<Runnable> callbacks;
        List<Future<?>> running;
        synchronized (this) {
            if (cancelled) {
                return;
            }
            cancelled = true;
            callbacks = List.copyOf(onCancel);
            running = List.copyOf(tracked);
            onCancel.clear();
        }
        running.forEach(future -> future.cancel(true));
        for (Runnable callback : callbacks) {
            try {
                callback.run();
            } catch (RuntimeException thrown) {
                System.getLogger(TenureWork.class.getName()).log(System.Logger.Level.WARNING,
                        "a tenure's onCancel callback threw; the others still ran", thrown);
            }
        }
    }

    /**
     * Completes once every tracked work, and every work of earlier windows this one waits for, has
     * returned (a cancelled {@link FutureTask} only once its thread left the task, not when it was told
     * to stop), or fails after {@code atMostNanos}.
     */
    public CompletableFuture<Void> returned(long atMostNanos) {
        List<Future<?>> running = new ArrayList<>(earlier);
        synchronized (this) {
            running.addAll(tracked);
        }
        if (running.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = CompletableFuture.runAsync(() -> running.forEach(TenureWorks::awaitReturn),
                runnable -> threads.newThread(runnable).start());
        return done.orTimeout(atMostNanos, TimeUnit.NANOSECONDS);
    }

    /** Whether {@code future}'s work has returned, as {@link #awaitReturn} would find without blocking. */
    private static boolean hasReturned(Future<?> future) {
        return future instanceof ReturnAware aware ? aware.hasReturned() : future.isDone();
    }

    /** Blocks until {@code future}'s work has returned. */
    private static void awaitReturn(Future<?> future) {
        if (future instanceof ReturnAware aware) {
            aware.awaitReturn();
            return;
        }
        try {
            future.get(); // a cancelled future is done at once: its owner answers for its thread
        } catch (Exception finished) {
            // returned, failed or cancelled: done either way
        }
    }

    /** A future that can tell when its work has left the running thread, not only when it was cancelled. */
    interface ReturnAware {
        void awaitReturn();

        boolean hasReturned();
    }

    /** The task {@link #run} starts: done when cancelled, returned only once its thread left it. */
    private static final class ReturningTask<T> extends FutureTask<T> implements ReturnAware {
        private final java.util.concurrent.CountDownLatch left = new java.util.concurrent.CountDownLatch(1);

        ReturningTask(Callable<T> work) {
            super(work);
        }

        @Override
        public void run() {
            try {
                super.run();
            } finally {
                left.countDown();
            }
        }

        @Override
        public boolean hasReturned() {
            return left.getCount() == 0;
        }

        @Override
        public void awaitReturn() {
            boolean interrupted = false;
            while (true) {
                try {
                    left.await();
                    break;
                } catch (InterruptedException again) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
