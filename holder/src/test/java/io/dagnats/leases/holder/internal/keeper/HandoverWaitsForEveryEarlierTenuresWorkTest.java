package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.Succession;
import io.dagnats.leases.holder.TenureWork;
import io.dagnats.leases.holder.internal.CandidateCalls;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A yield whose drain overran its bound does not hand over ("work of the ended tenure may still
 * act: nobody else may own the key while it does") and renews to keep the key. Owner again, the
 * next handover, or release when no candidate answers, must still wait for the first tenure's work
 * while it has not returned, not only for the latest tenure's.
 */
class HandoverWaitsForEveryEarlierTenuresWorkTest {

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
    private final CountDownLatch stubbornWorkStarted = new CountDownLatch(1);
    private final CountDownLatch letStubbornWorkReturn = new CountDownLatch(1);
    private volatile boolean stubbornWorkRuns;

    /**
     * The first tenure starts work that ignores its interrupt (blocked I/O does) and returns only once
     * it runs (a task cancelled before its thread starts never runs); later tenures start none.
     */
    private final OwnershipListener listener = new OwnershipListener() {
        @Override
        public void becameOwner(Tenure tenure, TenureWork work) {
            told.add("owner " + tenure.fence());
            if (told.size() == 1) {
                work.run(() -> {
                    stubbornWorkRuns = true;
                    stubbornWorkStarted.countDown();
                    while (true) {
                        try {
                            letStubbornWorkReturn.await();
                            stubbornWorkRuns = false;
                            return null;
                        } catch (InterruptedException ignored) {
                            // as blocked I/O would: the cancel does not stop it
                        }
                    }
                });
                try {
                    assertTrue(stubbornWorkStarted.await(10, TimeUnit.SECONDS), "the work started");
                } catch (InterruptedException stopped) {
                    throw new AssertionError(stopped);
                }
            }
        }

        @Override
        public void stoppedOwning(StopReason reason) {
            told.add("stopped " + reason);
        }
    };

    @AfterEach
    void letTheWorkGo() {
        letStubbornWorkReturn.countDown();
    }

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

    private ScriptedCalls.Call last() {
        return calls.made().get(calls.made().size() - 1);
    }

    /**
     * Owner at fence 6 with the stubborn work running, yielded to the older candidate, the drain
     * overrun (200 ms), and owner again at fence 7 by the renew that keeps the key.
     */
    private LeaseKeeper ownerAgainAfterAnOverrunYield(CandidateCalls candidates) {
        KeepOptions options = KeepOptions.defaults().candidacy(0, "1.0").succession(Succession.oldestVersionFirst())
                .minCandidacy(Duration.ZERO).handoverBound(Duration.ofMillis(200));
        LeaseKeeper keeper = new LeaseKeeper(new KeeperRules(KeeperHarness.KEY, KeeperHarness.SELF, KeeperHarness.TTL,
                bound -> 0, options), calls, candidates, manual, manual.wallClock(), locked, Runnable::run, listener,
                new HolderTelemetry(OpenTelemetry.noop(), Map::of, () -> null), new FenceFloors());
        keeper.start();
        runDue();
        answer("acquire", KeeperHarness.granted(5));
        answer("renew", KeeperHarness.renewed(6, 5));
        runUntil(() -> !calls.nothingPending(), "the renew after the overrun drain");
        answer("renew", KeeperHarness.renewed(7, 5));
        assertEquals(List.of("owner 6", "stopped PREFERRED_CANDIDATE", "owner 7"), told, "owner again (yield brake holds)");
        return keeper;
    }

    @Test
    void aCloseDoesNotHandOverWhileAnEarlierTenuresWorkStillRuns() {
        LeaseKeeper keeper = ownerAgainAfterAnOverrunYield(
                (key, window) -> CompletableFuture.completedFuture(List.of(HandoverRulesTest.OLD)));

        keeper.beginClose();
        runDue();
        runUntil(() -> !calls.nothingPending() || keeper.closedStage().isDone(),
                "a handover, or the close leaving the key to the TTL");
        assertTrue(stubbornWorkRuns, "precondition: the first tenure's work still runs");
        assertTrue(calls.nothingPending(), "handed over (fence " + last().presented()
                + ") while the first tenure's work, for which the overrun yield kept the key, still runs: "
                + calls.made());
    }

    @Test
    void aCloseReleasesOnlyOnceAnEarlierTenuresWorkReturned() {
        // The older candidate waits only until this keeper owns again.
        LeaseKeeper keeper = ownerAgainAfterAnOverrunYield((key, window) -> CompletableFuture.completedFuture(
                told.size() < 3 ? List.of(HandoverRulesTest.OLD) : List.of()));

        keeper.beginClose();
        runDue(); // nobody answers the close's ask: a release once the drain has ended
        assertTrue(stubbornWorkRuns, "precondition: the first tenure's work still runs");
        assertTrue(calls.nothingPending(), "released while the first tenure's work still runs: " + calls.made());

        letStubbornWorkReturn.countDown();
        runUntil(() -> !calls.nothingPending(), "the release once that work returned");
        assertEquals("release", last().operation(), "calls " + calls.made());
        assertEquals(7, last().presented().revision());
    }
}
