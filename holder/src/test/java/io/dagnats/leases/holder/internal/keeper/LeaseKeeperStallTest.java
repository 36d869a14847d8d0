package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A keeper cannot stall: an answer its rules do not expect ends ownership and campaigns again,
 * rather than leaving it in a phase that waits on a call already answered.
 */
class LeaseKeeperStallTest extends KeeperHarness {

    @Test
    void aRenewAnsweredBelowTheTenuresFenceEndsOwnershipAndTheKeeperCampaignsAgain() {
        becomeOwner(5, 10);
        scheduler.advance(TTL.duration().dividedBy(3));
        // The store came back without the writes up to 10: the renew lands at 7.
        answer("renew", renewed(7, 5));

        assertFalse(lease.isOwner(), "a renew below the fence proves nothing: " + told);
        assertEquals("stopped STORE_WENT_BACK", told.get(told.size() - 1));
        assertEquals(new Fence(10), calls.next("renew").presented(), "tells dagnats the fence it had");
        scheduler.advance(Duration.ofSeconds(1));
        calls.next("acquire"); // campaigns again
        assertTrue(keeper.state() instanceof KeeperState.Acquiring, keeper.state().toString());
    }
}
