package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.Succession;
import io.dagnats.leases.holder.TenureWork;
import io.dagnats.leases.holder.internal.CandidateCalls;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A yield whose drain overran its bound does not hand over ("work of the ended tenure may still
 * act: nobody else may own the key while it does") and renews to keep the key. Owner again, the
 * next handover, or release when no candidate answers, must still wait for the first tenure's work
 * while it has not returned, not only for the latest tenure's.
 */
class HandoverWaitsForEveryEarlierTenuresWorkTest {

    private final DrainsOnOtherThreads drains = new DrainsOnOtherThreads();
    private final List<String> told = drains.told;
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

    /**
     * Owner at fence 6 with the stubborn work running, yielded to the older candidate, the drain
     * overrun (200 ms), and owner again at fence 7 by the renew that keeps the key.
     */
    private LeaseKeeper ownerAgainAfterAnOverrunYield(CandidateCalls candidates) {
        KeepOptions options = KeepOptions.defaults().candidacy(0, "1.0").succession(Succession.oldestVersionFirst())
                .minCandidacy(Duration.ZERO).handoverBound(Duration.ofMillis(200));
        LeaseKeeper keeper = drains.keeper(options, candidates, Runnable::run, listener);
        drains.answer("acquire", KeeperHarness.granted(5));
        drains.answer("renew", KeeperHarness.renewed(6, 5));
        drains.runUntil(() -> !drains.calls.nothingPending(), "the renew after the overrun drain");
        drains.answer("renew", KeeperHarness.renewed(7, 5));
        assertEquals(List.of("owner 6", "stopped PREFERRED_CANDIDATE", "owner 7"), told, "owner again (yield brake holds)");
        return keeper;
    }

    @Test
    void aCloseDoesNotHandOverWhileAnEarlierTenuresWorkStillRuns() {
        LeaseKeeper keeper = ownerAgainAfterAnOverrunYield(
                (key, window) -> CompletableFuture.completedFuture(List.of(HandoverRulesTest.OLD)));

        keeper.beginClose();
        drains.runDue();
        drains.runUntil(() -> !drains.calls.nothingPending() || keeper.closedStage().isDone(),
                "a handover, or the close leaving the key to the TTL");
        assertTrue(stubbornWorkRuns, "precondition: the first tenure's work still runs");
        assertTrue(drains.calls.nothingPending(), "handed over (fence " + drains.last().presented()
                + ") while the first tenure's work, for which the overrun yield kept the key, still runs: "
                + drains.calls.made());
    }

    @Test
    void aCloseReleasesOnlyOnceAnEarlierTenuresWorkReturned() {
        // The older candidate waits only until this keeper owns again.
        LeaseKeeper keeper = ownerAgainAfterAnOverrunYield((key, window) -> CompletableFuture.completedFuture(
                told.size() < 3 ? List.of(HandoverRulesTest.OLD) : List.of()));

        keeper.beginClose();
        drains.runDue(); // nobody answers the close's ask: a release once the drain has ended
        assertTrue(stubbornWorkRuns, "precondition: the first tenure's work still runs");
        assertTrue(drains.calls.nothingPending(), "released while the first tenure's work still runs: " + drains.calls.made());

        letStubbornWorkReturn.countDown();
        drains.runUntil(() -> !drains.calls.nothingPending(), "the release once that work returned");
        assertEquals("release", drains.last().operation(), "calls " + drains.calls.made());
        assertEquals(7, drains.last().presented().revision());
    }
}
