package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseChange;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The keeping of one lease, against scripted calls and a clock that moves only when told, seen
 * through its handle: when it owns, renews and stops.
 */
class LeaseKeeperTest extends KeeperHarness {

    @Test
    void aGrantIsNotOwnershipUntilARenewOfOurOwnSucceeds() {
        keeper.start();
        scheduler.runDue();
        answer("acquire", granted(5));

        assertFalse(lease.isOwner(), "a grant may return an earlier write whose TTL is almost spent");
        ScriptedCalls.Call confirm = calls.next("renew");
        assertEquals(new Fence(5), confirm.presented());
        confirm.answer().complete(renewed(6, 5));
        scheduler.runDue();

        assertTrue(lease.isOwner());
        Tenure tenure = lease.tenure().orElseThrow();
        assertEquals(new Fence(5), tenure.start());
        assertEquals(new Fence(6), tenure.fence());
        assertEquals(List.of("owner 5 6"), told);
    }

    @Test
    void theDeadlineRunsFromTheRenewThatConfirmedTheGrantNotFromTheAcquire() {
        keeper.start();
        scheduler.runDue();
        long acquireSentAt = scheduler.nanoTime();
        // A restarted process: its acquire is answered late, with the dead process's write.
        scheduler.advance(Duration.ofSeconds(4));
        answer("acquire", granted(5));
        long renewSentAt = scheduler.nanoTime();
        scheduler.advance(Duration.ofMillis(300));
        answer("renew", renewed(6, 5));

        long deadline = lease.tenure().orElseThrow().deadlineNanos();
        assertEquals(renewSentAt + TTL.duration().toNanos() - MARGIN.toNanos(), deadline);
        assertTrue(deadline - acquireSentAt > TTL.duration().toNanos() - MARGIN.toNanos());
    }

    @Test
    void aGrantWhoseConfirmingRenewIsLostIsNeverOwnedAndTheHolderCampaignsAgain() {
        keeper.start();
        scheduler.runDue();
        answer("acquire", granted(5));
        answer("renew", new Answers.Renew.Lost("revision 5 is not the current fence"));

        assertFalse(lease.isOwner());
        assertTrue(told.isEmpty(), "never told it owned: " + told);
        scheduler.advance(Duration.ofMillis(100));
        calls.next("acquire");
    }

    @Test
    void ownershipEndsASafetyMarginBeforeTheServersTtlWhenNoRenewSucceeds() {
        long sentAt = becomeOwner(5, 6);
        long deadline = sentAt + TTL.duration().toNanos() - MARGIN.toNanos();
        assertEquals(deadline, lease.tenure().orElseThrow().deadlineNanos());

        // Renews go unanswered from here on.
        scheduler.advance(Duration.ofNanos(deadline - 1 - scheduler.nanoTime()));
        assertTrue(lease.isOwner(), "still owner a nanosecond before the deadline");
        scheduler.advance(Duration.ofNanos(1));
        assertFalse(lease.isOwner(), "not owner at the deadline, " + MARGIN.toMillis() + " ms before the server's TTL");
        assertEquals("stopped DEADLINE_PASSED", told.get(told.size() - 1));
    }

    @Test
    void aRenewAnsweredAfterItsOwnDeadlineDoesNotMakeAnOwner() {
        keeper.start();
        scheduler.runDue();
        answer("acquire", granted(5));
        ScriptedCalls.Call confirm = calls.next("renew");
        scheduler.advance(TTL.duration());
        confirm.answer().complete(renewed(6, 5));
        scheduler.runDue();

        assertFalse(lease.isOwner());
        assertEquals(new Fence(6), calls.next("renew").presented(), "renews again for a deadline it can use");
    }

    @Test
    void renewsAboutEveryThirdOfTheTtlAndTellsTheNewFence() {
        becomeOwner(5, 6);
        scheduler.advance(TTL.duration().dividedBy(3).minusMillis(1));
        assertTrue(calls.nothingPending());
        scheduler.advance(Duration.ofMillis(1));
        answer("renew", renewed(9, 5));

        assertEquals(new Fence(9), lease.fence().orElseThrow());
        assertEquals(new Fence(5), lease.tenure().orElseThrow().start(), "a renew keeps the tenure");
        assertEquals(List.of("owner 5 6", "renewed 9"), told);
    }

    @Test
    void aLostRenewStopsOwningAtOnce() {
        becomeOwner(5, 6);
        scheduler.advance(TTL.duration().dividedBy(3));
        answer("renew", new Answers.Renew.Lost("it is held by another holder"));

        assertFalse(lease.isOwner());
        assertEquals("stopped LOST", told.get(told.size() - 1));
    }

    @Test
    void anOwnerStopsAtOnceWhenAReleaseRevokeOrExpiryAfterItsTenureBeganArrives() {
        for (String ending : List.of("revoked", "released", "expired")) {
            LeaseKeeperTest fresh = new LeaseKeeperTest();
            fresh.becomeOwner(5, 6);

            fresh.keeper.keyChanged(fresh.change(ending, 7));
            fresh.scheduler.runDue();

            assertFalse(fresh.lease.isOwner(), ending);
            assertEquals(ending.equals("revoked") ? "stopped REVOKED" : "stopped LOST",
                    fresh.told.get(fresh.told.size() - 1), ending);
        }
    }

    @Test
    void aRevokedOwnerStepsBackAThirdOfItsTtlBeforeCampaigningAgain() {
        becomeOwner(5, 6);

        keeper.keyChanged(change("revoked", 7));
        scheduler.runDue();
        scheduler.advance(TTL.duration().dividedBy(3).minusMillis(1));
        assertTrue(calls.nothingPending(), "no acquire while a waiting replica takes the key");

        scheduler.advance(Duration.ofMillis(1));
        calls.next("acquire");
    }

    @Test
    void eventsThatDoNotEndThisTenureLeaveTheOwnerAlone() {
        becomeOwner(5, 6);
        // An ending older than this tenure (a late event of an earlier one), this process's own renewal (one
        // whose answer is still to come, above the fence), another holder's acquire older than the tenure, or
        // no event at all.
        for (Optional<LeaseChange> change : List.of(change("revoked", 4), change("renewed", 6), change("renewed", 7),
                change("acquired", 4), Optional.<LeaseChange>empty())) {
            keeper.keyChanged(change);
            scheduler.runDue();
            assertTrue(lease.isOwner(), String.valueOf(change));
        }
    }

    @Test
    void aWriteAboveTheTenureByAnyOtherClaimantEndsItForTheEndBeforeItWasMissed() {
        List<Claimant> others = List.of(Claimant.of(new HolderId("other")), Claimant.of(ME),
                Claimant.of(ME, new Incarnation("run-2")));
        for (Claimant other : others) {
            for (String write : List.of("acquired", "renewed")) {
                LeaseKeeperTest fresh = new LeaseKeeperTest();
                fresh.becomeOwner(5, 6);

                fresh.keeper.keyChanged(change(write, 8, other));
                fresh.scheduler.runDue();

                assertFalse(fresh.lease.isOwner(), write + " by " + other);
                assertEquals("stopped LOST", fresh.told.get(fresh.told.size() - 1));
            }
        }
    }

    @Test
    void aListenerThatThrowsNeverStopsTheLeaseBeingKept() {
        listenerThrows = true;
        becomeOwner(5, 6);
        assertTrue(lease.isOwner());

        scheduler.advance(TTL.duration().dividedBy(3));
        answer("renew", renewed(7, 5));
        scheduler.advance(TTL.duration().dividedBy(3));
        answer("renew", renewed(8, 5));

        assertEquals(new Fence(8), lease.fence().orElseThrow());
        assertEquals(List.of("owner 5 6", "renewed 7", "renewed 8"), told);
    }
}
