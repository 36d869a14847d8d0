package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.Succession;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A drain that overran fails only itself: a yield whose drain overran because the listener was still
 * in stoppedOwning renews to keep the key; once the listener has returned, a close's later drain of
 * that same stoppedOwning ends in time and releases. (Were the bound to fail the shared stage itself,
 * as {@code orTimeout} on it did, that drain would fail at once, release nothing, and leave the key
 * to its TTL with no owner.)
 */
class OverrunDrainFailsNoLaterDrainTest {

    private final DrainsOnOtherThreads drains = new DrainsOnOtherThreads();

    @Test
    void aCloseAfterAListenerOverranAYieldStillReleasesOnceItReturned() {
        KeepOptions options = KeepOptions.defaults().candidacy(0, "1.0").succession(Succession.oldestVersionFirst())
                .minCandidacy(Duration.ZERO).handoverBound(Duration.ofMillis(200));
        LeaseKeeper keeper = drains.keeper(options,
                (key, window) -> CompletableFuture.completedFuture(List.of(HandoverRulesTest.OLD)));
        drains.answer("acquire", KeeperHarness.granted(5));
        drains.answer("renew", KeeperHarness.renewed(6, 5));

        // Yielded at once; the listener has not run its stoppedOwning within the 200 ms bound: a renew.
        drains.runUntil(() -> !drains.calls.nothingPending(), "the renew after the overrun drain");
        drains.runListener();
        assertEquals(List.of("owner 6", "stopped PREFERRED_CANDIDATE"), drains.told, "the listener has returned");

        // Closed while that renew is in flight: it answers, and the close drains (nothing runs) and releases.
        CompletableFuture<Void> closed = keeper.beginClose();
        drains.runDue();
        drains.answer("renew", KeeperHarness.renewed(7, 5));
        drains.runUntil(() -> !drains.calls.nothingPending() || closed.isDone(), "a release, or the close giving up");
        assertTrue(!drains.calls.nothingPending() && drains.calls.made().get(drains.calls.made().size() - 1).operation().equals("release"),
                "nothing runs any more, yet the close did not release fence 7 (left to the TTL): " + drains.calls.made());
    }
}
