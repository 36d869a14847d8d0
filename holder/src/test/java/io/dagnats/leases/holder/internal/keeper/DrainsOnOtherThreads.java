package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.internal.CandidateCalls;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.HolderTelemetry;
import io.dagnats.leases.holder.internal.ManualScheduler;
import io.dagnats.leases.holder.internal.Scheduler;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * A keeper on a manual scheduler whose drains end on other threads (a drain's bound is real time,
 * and the listener's and the work's threads are the test's): the events those threads submit queue
 * under one lock, and the test runs what is due under it. What the drain tests share.
 */
final class DrainsOnOtherThreads {

    final ManualScheduler manual = new ManualScheduler();
    final ScriptedCalls calls = new ScriptedCalls();
    /** What the listener was told, in order: {@code "owner 6"}, {@code "stopped RELEASED"}. */
    final List<String> told = new CopyOnWriteArrayList<>();
    /** The listener's thread, run by the test ({@link #runListener}). */
    final Deque<Runnable> listenerThread = new ConcurrentLinkedDeque<>();

    private final Scheduler locked = new Scheduler() {
        @Override
        public void execute(Runnable task) {
            synchronized (manual) {
                manual.execute(task);
            }
        }

        @Override
        public void schedule(Runnable task, long delayNanos) {
            synchronized (manual) {
                manual.schedule(task, delayNanos);
            }
        }

        @Override
        public boolean isShutdown() {
            return false;
        }
    };

    /** Records into {@link #told}. */
    final OwnershipListener recording = new OwnershipListener() {
        @Override
        public void becameOwner(Tenure tenure) {
            told.add("owner " + tenure.fence());
        }

        @Override
        public void stoppedOwning(StopReason reason) {
            told.add("stopped " + reason);
        }
    };

    /** A started keeper of {@link KeeperHarness#KEY} telling {@code listener} on {@code listeners}. */
    LeaseKeeper keeper(KeepOptions options, CandidateCalls candidates, Executor listeners, OwnershipListener listener) {
        LeaseKeeper keeper = new LeaseKeeper(new KeeperRules(KeeperHarness.KEY, KeeperHarness.SELF, KeeperHarness.TTL,
                bound -> 0, options), calls, candidates, manual, manual.wallClock(), locked, listeners, listener,
                new HolderTelemetry(OpenTelemetry.noop(), Map::of, () -> null), new FenceFloors());
        keeper.start();
        runDue();
        return keeper;
    }

    /** A keeper that tells {@link #recording} on the test's {@link #listenerThread}. */
    LeaseKeeper keeper(KeepOptions options, CandidateCalls candidates) {
        return keeper(options, candidates, listenerThread::add, recording);
    }

    void runDue() {
        synchronized (manual) {
            manual.runDue();
        }
    }

    void runUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what + "; calls " + calls.made());
            runDue();
            Thread.onSpinWait();
        }
    }

    /** Answers the next {@code operation} call and runs what that makes due. */
    void answer(String operation, Object answer) {
        synchronized (manual) {
            calls.next(operation).answer().complete(answer);
            manual.runDue();
        }
    }

    void runListener() {
        while (!listenerThread.isEmpty()) {
            listenerThread.poll().run();
        }
    }

    ScriptedCalls.Call last() {
        return calls.made().get(calls.made().size() - 1);
    }
}
