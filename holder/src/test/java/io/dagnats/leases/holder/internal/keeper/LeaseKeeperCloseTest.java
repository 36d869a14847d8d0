package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import java.util.List;
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
}
