package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.protocol.Answers;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A write of the key seen by a keeper, by another holder or ending the lease, is a revision the
 * store handed out: a later grant at or below it is the store having come back without it, never
 * a tenure, even when this process never owned the key above it. Its own writes' events do not
 * count: they may come before their answers.
 */
class KeeperHeardWritesFloorTest extends KeeperHarness {

    /**
     * Interleaving: this keeper waits while "other" holds k (acquired at 50, seen). nats-server is
     * killed -9 and comes back without revisions 46 to 50; other's lease is gone with them, and
     * this keeper's acquire is granted at 46. Other may have written downstream at 50 and this
     * process would now act at 46 beside it, and at 47..50 again after its renews.
     */
    @Test
    void aGrantAtOrBelowAnotherHoldersWriteSeenIsTheStoreGoingBack() {
        for (long granted : List.of(46L, 50L)) {
            KeeperHeardWritesFloorTest fresh = new KeeperHeardWritesFloorTest();
            fresh.keeper.keyChanged(change("acquired", 50, Claimant.of(new HolderId("other"))));
            fresh.keeper.start();
            fresh.scheduler.runDue();

            fresh.answer("acquire", granted(granted));

            assertFalse(fresh.lease.isOwner(), "granted at " + granted + " after 50 was seen: " + fresh.told);
            assertEquals(new Fence(51), fresh.calls.next("renew").presented(), "tells dagnats the revision above the one seen");
        }
    }

    /**
     * Interleaving: other's acquire at 50 is heard while this keeper's acquire is on its way; the
     * store goes back and grants it 46. Heard after the send, 50 cannot judge that answer (it may
     * as well have come after this request's write), but it judges the grant's renew, sent after:
     * answered 47, that is the store going back, and the keeper never owned.
     */
    @Test
    void aWriteHeardWhileTheAcquireIsOnItsWayJudgesTheGrantsRenew() {
        keeper.start();
        scheduler.runDue();
        keeper.keyChanged(change("acquired", 50, Claimant.of(new HolderId("other"))));
        scheduler.runDue();

        answer("acquire", granted(46));
        answer("renew", renewed(47, 46));

        assertTrue(told.isEmpty(), "never owned: " + told);
        assertFalse(lease.isOwner());
        assertEquals(new Fence(51), calls.next("renew").presented(), "tells dagnats the revision above the one seen");
    }

    @Test
    void aGrantAboveEveryWriteSeenIsATenure() {
        keeper.start();
        scheduler.runDue();
        keeper.keyChanged(change("acquired", 50));
        keeper.keyChanged(change("expired", 51));
        scheduler.runDue();

        answer("acquire", granted(52));
        answer("renew", renewed(53, 52));

        assertTrue(lease.isOwner(), told.toString());
        assertEquals("owner 52 53", told.get(told.size() - 1));
    }

    /** Its own renew's event (53) arriving before the renew's answer (53) must not make that answer look old. */
    @Test
    void itsOwnWritesEventBeforeTheAnswerChangesNothing() {
        becomeOwner(5, 6);
        scheduler.advance(TTL.duration().dividedBy(3));
        keeper.keyChanged(change("renewed", 7, SELF));
        scheduler.runDue();

        answer("renew", renewed(7, 5));

        assertTrue(lease.isOwner(), told.toString());
        assertEquals("renewed 7", told.get(told.size() - 1));
        scheduler.advance(TTL.duration().dividedBy(3));
        Answers.Renew next = renewed(8, 5);
        answer("renew", next);
        assertTrue(lease.isOwner(), told.toString());
    }
}
