package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.Succession;
import io.dagnats.leases.holder.TenureWork;
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
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Review s33: a yield whose drain overran its bound does not hand over ("work of the ended tenure
 * may still act: nobody else may own the key while it does") and renews to keep the key. Once that
 * renew makes it owner again, the next handover must still wait for the first tenure's work, which
 * has not returned; the drain a keeper phase waits for covers only the latest tenure's work.
 */
class ReviewOverrunWorkTest {

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
    private final CountDownLatch letStubbornWorkReturn = new CountDownLatch(1);
    private volatile boolean stubbornWorkRuns;

    /** The first tenure starts work that ignores its interrupt (blocked I/O does); later tenures start none. */
    private final OwnershipListener listener = new OwnershipListener() {
        @Override
        public void becameOwner(Tenure tenure, TenureWork work) {
            told.add("owner " + tenure.fence());
            if (told.size() == 1) {
                stubbornWorkRuns = true;
                work.run(() -> {
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

    @Test
    void aHandoverAfterAnOverrunYieldWaitsForTheFirstTenuresWorkToo() {
        KeepOptions options = KeepOptions.defaults().candidacy(0, "1.0").succession(Succession.oldestVersionFirst())
                .minCandidacy(Duration.ZERO).handoverBound(Duration.ofMillis(200));
        LeaseKeeper keeper = new LeaseKeeper(new KeeperRules(KeeperHarness.KEY, KeeperHarness.SELF, KeeperHarness.TTL,
                bound -> 0, options), calls, (key, window) -> CompletableFuture.completedFuture(List.of(HandoverRulesTest.OLD)),
                manual, manual.wallClock(), locked, Runnable::run, listener,
                new HolderTelemetry(OpenTelemetry.noop(), Map::of, () -> null), new FenceFloors());
        keeper.start();
        runDue();
        answer("acquire", KeeperHarness.granted(5));
        answer("renew", KeeperHarness.renewed(6, 5));

        // Yielded to the older candidate at once; the first tenure's work overruns the 200 ms bound:
        // no handover, a renew to keep the key while that work may still act.
        runUntil(() -> !calls.nothingPending(), "the renew after the overrun drain");
        answer("renew", KeeperHarness.renewed(7, 5));
        assertEquals(List.of("owner 6", "stopped PREFERRED_CANDIDATE", "owner 7"), told, "owner again (yield brake holds)");

        // Closed: the close hands over to the candidate once the drain it waits for has ended.
        keeper.beginClose();
        runDue();
        runUntil(() -> !calls.nothingPending() || keeper.closedStage().isDone(), "a handover, or the close leaving the key to the TTL");
        assertTrue(stubbornWorkRuns, "precondition: the first tenure's work still runs");
        assertTrue(calls.nothingPending(), "handed over (fence " + calls.made().get(calls.made().size() - 1).presented()
                + ") while the first tenure's work, for which the overrun yield kept the key, still runs: "
                + calls.made());
    }
}
