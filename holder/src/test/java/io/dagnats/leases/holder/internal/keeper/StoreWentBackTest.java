package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.internal.FenceFloors;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Fences only grow in a holder process: an answer at or below the highest fence this process
 * confirmed for the key ({@link FenceFloors}) is the store going back, never a tenure; the
 * keeper presents the floor to dagnats in a renew of the key's probe, and campaigns
 * until it owns above every fence it had.
 */
class StoreWentBackTest extends KeeperHarness {

    @Test
    void aGrantBelowTheFloorIsNotOwnedIsToldOnceAndTheKeeperCampaignsOnUntilAFenceAboveIt() {
        floors.raise(KEY, new Fence(20)); // this holder owned k up to 20 before it was dropped and kept again
        keeper.start();
        scheduler.runDue();
        answer("acquire", granted(12));

        assertFalse(lease.isOwner());
        assertReported(12, 20);
        scheduler.advance(Duration.ofSeconds(1));
        answer("acquire", granted(12));
        // Told again (the first report may have proved nothing), though logged once per floor.
        assertReported(12, 20);
        scheduler.advance(Duration.ofSeconds(1));
        answer("acquire", granted(25));
        answer("renew", renewed(26, 25));

        assertEquals(List.of("owner 25 26"), told);
        assertEquals(Optional.of(new Fence(26)), floors.floor(KEY));
    }

    @Test
    void aGrantAtTheFloorIsThatConfirmedWriteStillCurrentAndIsProved() {
        floors.raise(KEY, new Fence(20));
        keeper.start();
        scheduler.runDue();
        answer("acquire", new io.dagnats.leases.protocol.Answers.Acquire.Granted(mine(20, 15)));

        assertEquals(new Fence(20), calls.next("renew").presented(), "the proving renew, no report");
    }

    @Test
    void aResolveShowingTheSameTenureBelowTheFloorEndsOwnershipAndCampaignsAgain() {
        becomeOwner(5, 10);
        scheduler.advance(TTL.duration().dividedBy(3));
        calls.next("renew").answer().completeExceptionally(new IllegalStateException("no responders"));
        scheduler.runDue();
        answer("acquire", new io.dagnats.leases.protocol.Answers.Acquire.Granted(mine(7, 5)));

        assertFalse(lease.isOwner());
        assertEquals("stopped STORE_WENT_BACK", told.get(told.size() - 1));
        assertReported(7, 10);
        scheduler.advance(Duration.ofSeconds(1));
        calls.next("acquire");
    }

    @Test
    void aResolveShowingTheSameTenureAtTheFloorRenewsAsBefore() {
        becomeOwner(5, 10);
        scheduler.advance(TTL.duration().dividedBy(3));
        calls.next("renew").answer().completeExceptionally(new IllegalStateException("no responders"));
        scheduler.runDue();
        answer("acquire", new io.dagnats.leases.protocol.Answers.Acquire.Granted(mine(10, 5)));

        assertTrue(lease.isOwner(), "the unanswered renew never landed: 10 is still the current write");
        answer("renew", renewed(11, 5));
        assertEquals(List.of("owner 5 10", "renewed 11"), told);
    }

    @Test
    void aRenewOfAGrantAnsweredAtOrBelowWhatItPresentedMakesNoOwner() {
        keeper.start();
        scheduler.runDue();
        answer("acquire", granted(9));
        answer("renew", renewed(9, 9));

        assertFalse(lease.isOwner());
        assertTrue(told.isEmpty(), told.toString());
        assertReported(9, 9);
    }

    @Test
    void aLaterOwnerAboveTheFloorIsANewEpisodeAndIsToldAgain() {
        becomeOwner(5, 10);
        scheduler.advance(TTL.duration().dividedBy(3));
        answer("renew", renewed(7, 5));
        assertReported(7, 10);
        scheduler.advance(Duration.ofSeconds(1));
        answer("acquire", granted(30));
        answer("renew", renewed(31, 30));
        scheduler.advance(TTL.duration().dividedBy(3));
        answer("renew", renewed(12, 30));

        assertEquals(List.of("owner 5 10", "stopped STORE_WENT_BACK", "owner 30 31", "stopped STORE_WENT_BACK"), told);
        assertReported(12, 31);
    }

    /**
     * The report: a renew presenting the floor, of the key's probe, which nobody holds (while the
     * key stays held by this process's older record, no renew of it proves anything); nothing
     * else, no release of that record.
     */
    private void assertReported(long ownRecord, long floor) {
        ScriptedCalls.Call report = calls.next("renew");
        assertEquals(new Fence(floor), report.presented(), "presents the highest fence it had");
        assertEquals(new LeaseKey(KEY.value() + "-went-back"), report.key(), "on the key's probe, not on the key"
                + " its own record " + ownRecord + " holds");
    }
}
