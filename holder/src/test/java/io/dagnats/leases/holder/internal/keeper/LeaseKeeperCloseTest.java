package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.protocol.Answers;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** Closing and abandoning a keeper: what is released, under which fence, and what is left to the TTL. */
class LeaseKeeperCloseTest extends KeeperHarness {

    @Test
    void closeReleasesTheLeaseUnderTheFenceOfTheRenewInFlight() {
        becomeOwner(5, 6);
        scheduler.advance(TTL.duration().dividedBy(3));
        ScriptedCalls.Call renew = calls.next("renew");
        keeper.beginClose();
        scheduler.runDue();
        assertFalse(lease.isOwner(), "stops acting as owner at once");

        renew.answer().complete(renewed(7, 5));
        scheduler.runDue();
        assertEquals(new Fence(7), calls.next("release").presented());
    }

    @Test
    void anAbandonedLeaseStopsOwningAndRenewingAndIsNeverReleased() {
        becomeOwner(5, 6);
        keeper.beginAbandon();
        scheduler.runDue();
        assertFalse(lease.isOwner(), "stops acting as owner at once");
        assertEquals("stopped ABANDONED", told.get(told.size() - 1), "not RELEASED: the key stays held until its TTL");

        scheduler.advance(TTL.duration().multipliedBy(2));
        assertEquals(List.of("acquire", "renew"), calls.made().stream().map(ScriptedCalls.Call::operation).toList(),
                "no renew keeps the key alive and no release lets another owner in: the TTL frees it");
    }

    @Test
    void anAbandonedLeaseDoesNotReleaseWhatTheRenewInFlightHolds() {
        becomeOwner(5, 6);
        scheduler.advance(TTL.duration().dividedBy(3));
        ScriptedCalls.Call renew = calls.next("renew");
        keeper.beginAbandon();
        scheduler.runDue();
        assertFalse(lease.isOwner());

        renew.answer().complete(renewed(7, 5));
        scheduler.advance(TTL.duration().multipliedBy(2));
        assertTrue(calls.nothingPending(), "nothing after the renew in flight: " + calls.made());
    }

    @Test
    void theCloseEndsOnlyOnceTheReleaseCameBack() {
        becomeOwner(5, 6);
        CompletableFuture<Void> closed = keeper.beginClose();
        scheduler.runDue();
        ScriptedCalls.Call release = calls.next("release");
        assertEquals(new Fence(6), release.presented());
        assertFalse(closed.isDone(), "still releasing: " + keeper.state());

        release.answer().complete(new Answers.Release.Released(KEY, ME, new Fence(6)));
        scheduler.runDue();
        assertTrue(closed.isDone(), "closed once the release is answered");
        assertEquals(new KeeperState.Closed(), keeper.state());
    }

    @Test
    void aReleaseThatFailsStillEndsTheClose() {
        becomeOwner(5, 6);
        CompletableFuture<Void> closed = keeper.beginClose();
        scheduler.runDue();
        calls.next("release").answer().completeExceptionally(new TimeoutException("no reply"));
        scheduler.runDue();
        assertTrue(closed.isDone(), "a release that may or may not have written leaves nothing to do");
    }

    @Test
    void aCloseOnAShutDownSchedulerEndsAtOnceAndReleasesNothing() {
        becomeOwner(5, 6);
        scheduler.shutDown();
        CompletableFuture<Void> closed = keeper.beginClose();
        assertTrue(closed.isDone(), "no event can run, so nothing is waited for");
        assertEquals(List.of("acquire", "renew"), calls.made().stream().map(ScriptedCalls.Call::operation).toList(),
                "no release: the key is left to the server's TTL");
    }
}
