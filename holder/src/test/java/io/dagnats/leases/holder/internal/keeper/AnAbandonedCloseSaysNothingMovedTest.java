package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.Candidate;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.HolderTelemetry;
import io.dagnats.leases.holder.internal.ManualScheduler;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A close tells the listener why ownership ends (HANDED_OVER, RELEASED) before the lease moves,
 * since the move waits for that stoppedOwning to return. An abandon before the move (a handover
 * not yet sent, a release not yet sent) moves nothing: {@code lastStop()} then says ABANDONED rather
 * than a move that never happened, and the listener, told once per tenure, is not told again.
 */
class AnAbandonedCloseSaysNothingMovedTest {

    private final ManualScheduler manual = new ManualScheduler();
    private final ScriptedCalls calls = new ScriptedCalls();
    private final List<String> told = new CopyOnWriteArrayList<>();
    /** The listener's thread, run by the test: until it runs, the close's drain waits for its stoppedOwning. */
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

    private void runListener() {
        while (!listenerThread.isEmpty()) {
            listenerThread.poll().run();
        }
    }

    /** An owner at fence 6 whose close finds {@code waiting}, abandoned while its drain waits for the listener. */
    private LeaseKeeper abandonedWhileTheCloseDrains(List<Candidate> waiting) {
        // A bound far longer than the test: the drain ends only when the listener has returned.
        KeepOptions options = KeepOptions.defaults().candidacy(0, "1.0").handoverBound(Duration.ofMinutes(5));
        LeaseKeeper keeper = new LeaseKeeper(new KeeperRules(KeeperHarness.KEY, KeeperHarness.SELF, KeeperHarness.TTL,
                bound -> 0, options), calls, (key, window) -> CompletableFuture.completedFuture(waiting), manual,
                manual.wallClock(), manual, listenerThread::add, listener,
                new HolderTelemetry(OpenTelemetry.noop(), Map::of, () -> null), new FenceFloors());
        keeper.start();
        manual.runDue();
        calls.next("acquire").answer().complete(KeeperHarness.granted(5));
        manual.runDue();
        calls.next("renew").answer().complete(KeeperHarness.renewed(6, 5));
        manual.runDue();
        keeper.beginClose();
        manual.runDue();
        assertTrue(keeper.state() instanceof KeeperState.Yielding || keeper.state() instanceof KeeperState.Draining,
                "precondition: the close waits for its drain: " + keeper.state());
        keeper.beginAbandon();
        manual.runDue();
        runListener();
        assertTrue(keeper.closedStage().isDone(), "the abandon ends the close");
        assertTrue(calls.nothingPending(), "nothing moved: " + calls.made());
        return keeper;
    }

    @Test
    void anAbandonBeforeTheHandoverWasSentTellsAbandoned() {
        LeaseKeeper keeper = abandonedWhileTheCloseDrains(List.of(HandoverRulesTest.OLD));

        assertEquals(List.of("owner 6", "stopped HANDED_OVER"), told);
        assertEquals(Optional.of(StopReason.ABANDONED), keeper.sight().lastStop());
    }

    @Test
    void anAbandonBeforeTheReleaseWasSentTellsAbandoned() {
        LeaseKeeper keeper = abandonedWhileTheCloseDrains(List.of());

        assertEquals(List.of("owner 6", "stopped RELEASED"), told);
        assertEquals(Optional.of(StopReason.ABANDONED), keeper.sight().lastStop());
    }
}
