package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import org.junit.jupiter.api.Test;

/**
 * Ordinary sequences, no store going back, in which a keeper hears writes of the key that are not
 * its own holding writes: every one leaves the next legitimate grant, and its renew, a tenure.
 */
class KeeperHeardWritesOrdinaryTenuresTest extends KeeperHarness {

    /** The predecessor renewed at 40 and handed over at 41, naming this process: the successor's grant is 41. */
    @Test
    void aHandoverToThisProcessIsItsTenureAndItsConfirmingRenewOwns() {
        keeper.keyChanged(change("renewed", 40, Claimant.of(new HolderId("predecessor"))));
        keeper.keyChanged(change("handed-over", 41, SELF));
        keeper.start();
        scheduler.runDue();

        answer("acquire", granted(41));
        answer("renew", renewed(42, 41));

        assertTrue(lease.isOwner(), told.toString());
        assertEquals("owner 41 42", told.get(told.size() - 1));
    }

    /** An operator revokes this owner's lease at 7; the keeper is granted 8 right after, and owns. */
    @Test
    void aRevokedOwnerReacquiresJustAboveTheRevoke() {
        becomeOwner(5, 6);
        keeper.keyChanged(change("revoked", 7, SELF));
        scheduler.runDue();
        assertEquals("stopped " + StopReason.REVOKED, told.get(told.size() - 1));

        scheduler.advance(TTL.duration().multipliedBy(2));
        answer("acquire", granted(8));
        answer("renew", renewed(9, 8));

        assertTrue(lease.isOwner(), told.toString());
        assertEquals("owner 8 9", told.get(told.size() - 1));
    }

    /** A twin (same holder id, another incarnation) held the key up to its release at 11: a grant at 12 is a tenure. */
    @Test
    void aTwinsReleaseJustBelowTheGrantLeavesItATenure() {
        Claimant twin = Claimant.of(ME, new Incarnation("run-2"));
        keeper.keyChanged(change("acquired", 10, twin));
        keeper.keyChanged(change("released", 11, twin));
        keeper.start();
        scheduler.runDue();

        answer("acquire", granted(12));
        answer("renew", renewed(13, 12));

        assertTrue(lease.isOwner(), told.toString());
    }
}
