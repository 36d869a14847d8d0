package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.Succession;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.HolderTelemetry;
import io.dagnats.leases.holder.internal.ManualScheduler;
import io.dagnats.leases.holder.internal.Scheduler;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A drain that overran fails only itself: a yield whose drain overran because the listener was still
 * in stoppedOwning renews to keep the key; once the listener has returned, a close's later drain of
 * that same stoppedOwning ends in time and releases. (Were the bound to fail the shared stage itself,
 * as {@code orTimeout} on it did, that drain would fail at once, release nothing, and leave the key
 * to its TTL with no owner.)
 */
class OverrunDrainFailsNoLaterDrainTest {

    private final ManualScheduler manual = new ManualScheduler();
    /** The drains end on other threads (their bounds are real time): their events queue under this lock. */
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
    private final ScriptedCalls calls = new ScriptedCalls();
    private final List<String> told = new CopyOnWriteArrayList<>();
    /** The listener's thread, run by the test. */
    private final Deque<Runnable> listenerThread = new ConcurrentLinkedDeque<>();

    private final OwnershipListener listener = new OwnershipListener() {
        @Override
        public void becameOwner(Tenure tenure) {
            told.add("owner " + tenure.fence());
        }

        @Override
        public void stoppedOwning(StopReason reason) {
            told.add("stopped " + reason);
        }
    };

    private void runDue() {
        synchronized (manual) {
            manual.runDue();
        }
    }

    private void runUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what + "; calls " + calls.made());
            runDue();
            Thread.onSpinWait();
        }
    }

    private void answer(String operation, Object answer) {
        synchronized (manual) {
            calls.next(operation).answer().complete(answer);
            manual.runDue();
        }
    }

    private void runListener() {
        while (!listenerThread.isEmpty()) {
            listenerThread.poll().run();
        }
    }

    @Test
    void aCloseAfterAListenerOverranAYieldStillReleasesOnceItReturned() {
        KeepOptions options = KeepOptions.defaults().candidacy(0, "1.0").succession(Succession.oldestVersionFirst())
                .minCandidacy(Duration.ZERO).handoverBound(Duration.ofMillis(200));
        LeaseKeeper keeper = new LeaseKeeper(new KeeperRules(KeeperHarness.KEY, KeeperHarness.SELF, KeeperHarness.TTL,
                bound -> 0, options), calls, (key, window) -> CompletableFuture.completedFuture(List.of(HandoverRulesTest.OLD)),
                manual, manual.wallClock(), locked, listenerThread::add, listener,
                new HolderTelemetry(OpenTelemetry.noop(), Map::of, () -> null), new FenceFloors());
        keeper.start();
        runDue();
        answer("acquire", KeeperHarness.granted(5));
        answer("renew", KeeperHarness.renewed(6, 5));

        // Yielded at once; the listener has not run its stoppedOwning within the 200 ms bound: a renew.
        runUntil(() -> !calls.nothingPending(), "the renew after the overrun drain");
        runListener();
        assertEquals(List.of("owner 6", "stopped PREFERRED_CANDIDATE"), told, "the listener has returned");

        // Closed while that renew is in flight: it answers, and the close drains (nothing runs) and releases.
        CompletableFuture<Void> closed = keeper.beginClose();
        runDue();
        answer("renew", KeeperHarness.renewed(7, 5));
        runUntil(() -> !calls.nothingPending() || closed.isDone(), "a release, or the close giving up");
        assertTrue(!calls.nothingPending() && calls.made().get(calls.made().size() - 1).operation().equals("release"),
                "nothing runs any more, yet the close did not release fence 7 (left to the TTL): " + calls.made());
    }
}
