package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.holder.Candidate;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A close tells the listener why ownership ends (HANDED_OVER, RELEASED) before the lease moves,
 * since the move waits for that stoppedOwning to return. An abandon before the move (a handover
 * not yet sent, a release not yet sent) moves nothing: {@code lastStop()} then says ABANDONED rather
 * than a move that never happened, and the listener, told once per tenure, is not told again.
 */
class AnAbandonedCloseSaysNothingMovedTest {

    private final DrainsOnOtherThreads drains = new DrainsOnOtherThreads();

    /** An owner at fence 6 whose close finds {@code waiting}, abandoned while its drain waits for the listener. */
    private LeaseKeeper abandonedWhileTheCloseDrains(List<Candidate> waiting) {
        // A bound far longer than the test: the drain ends only when the listener has returned.
        KeepOptions options = KeepOptions.defaults().candidacy(0, "1.0").handoverBound(Duration.ofMinutes(5));
        LeaseKeeper keeper = drains.keeper(options, (key, window) -> CompletableFuture.completedFuture(waiting));
        drains.answer("acquire", KeeperHarness.granted(5));
        drains.answer("renew", KeeperHarness.renewed(6, 5));
        keeper.beginClose();
        drains.runDue();
        assertTrue(keeper.state() instanceof KeeperState.Yielding || keeper.state() instanceof KeeperState.Draining,
                "precondition: the close waits for its drain: " + keeper.state());
        keeper.beginAbandon();
        drains.runDue();
        drains.runListener();
        assertTrue(keeper.closedStage().isDone(), "the abandon ends the close");
        assertTrue(drains.calls.nothingPending(), "nothing moved: " + drains.calls.made());
        return keeper;
    }

    @Test
    void anAbandonBeforeTheHandoverWasSentTellsAbandoned() {
        LeaseKeeper keeper = abandonedWhileTheCloseDrains(List.of(HandoverRulesTest.OLD));

        assertEquals(List.of("owner 6", "stopped HANDED_OVER"), drains.told);
        assertEquals(Optional.of(StopReason.ABANDONED), keeper.sight().lastStop());
    }

    @Test
    void anAbandonBeforeTheReleaseWasSentTellsAbandoned() {
        LeaseKeeper keeper = abandonedWhileTheCloseDrains(List.of());

        assertEquals(List.of("owner 6", "stopped RELEASED"), drains.told);
        assertEquals(Optional.of(StopReason.ABANDONED), keeper.sight().lastStop());
    }
}
