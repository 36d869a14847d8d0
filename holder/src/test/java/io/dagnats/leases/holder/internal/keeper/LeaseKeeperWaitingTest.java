package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseChange;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A keeper waiting behind another holder: when it asks again, and how often, against scripted
 * calls and a manual clock.
 */
class LeaseKeeperWaitingTest extends KeeperHarness {

    /** Campaigns and is told another holder has the key for {@code left} more (on the wall clock, as the server says). */
    private void waitBehindAnotherHolder(Duration left) {
        keeper.start();
        scheduler.runDue();
        answerHeldByOther(left);
    }

    private void answerHeldByOther(Duration left) {
        answer("acquire", new Answers.Acquire.HeldByOther(others("other", 5, left)));
    }

    @Test
    void aWaiterDoesNotCampaignOnAcquiredOrRenewedEventsNorOnMessagesThatAreNoEvent() {
        waitBehindAnotherHolder(Duration.ofSeconds(10));
        for (Optional<LeaseChange> change : List.of(change("renewed", 6), change("acquired", 7), change("renewed", 8),
                Optional.<LeaseChange>empty())) {
            keeper.keyChanged(change);
            scheduler.advance(Duration.ofMillis(500));
            assertTrue(calls.nothingPending(), "an acquire on " + change + ": " + calls.made());
        }
    }

    @Test
    void aWaiterCampaignsWithinTheJitterWhenTheKeyIsReleasedRevokedOrExpires() {
        for (String ending : List.of("released", "revoked", "expired")) {
            LeaseKeeperWaitingTest fresh = new LeaseKeeperWaitingTest();
            fresh.waitBehindAnotherHolder(Duration.ofSeconds(10));
            fresh.scheduler.advance(Duration.ofSeconds(1));

            fresh.keeper.keyChanged(fresh.change(ending, 9));
            fresh.scheduler.advance(Duration.ofMillis(25));

            fresh.calls.next("acquire");
            assertTrue(fresh.calls.nothingPending(), ending);
        }
    }

    @Test
    void aWaiterWhoseEventsAreAllLostAcquiresJustAfterTheHoldersExpiryAndNotBefore() {
        // The wall clock moves on a little between the answer and the keeper reading it, so "not before" allows 100 ms.
        waitBehindAnotherHolder(Duration.ofSeconds(10));
        scheduler.advance(Duration.ofSeconds(10));
        assertTrue(calls.nothingPending(), "no acquire before the holder's expiry: " + calls.made());

        scheduler.advance(Duration.ofMillis(300));
        calls.next("acquire");
    }

    @Test
    void whileTheKeyStaysHeldAWaiterAsksOncePerHolderExpiryAndNoMore() {
        // A holder renewing every third of its TTL: each answer says another 10 s.
        waitBehindAnotherHolder(Duration.ofSeconds(10));
        for (int poll = 0; poll < 6; poll++) {
            scheduler.advance(Duration.ofMillis(10_300));
            answerHeldByOther(Duration.ofSeconds(10));
            assertTrue(calls.nothingPending());
        }
        assertEquals(7, calls.made().size(), "one acquire per 10 s: " + calls.made());
    }

    @Test
    void aWaiterWhoseWallClockRunsAheadOfTheServersStillAsksAtMostOncePerTwoThirdsOfATtl() {
        // Review of issue 12: the fallback is dated from the answer's advisory expiresAt on this
        // process's wall clock. Here that clock runs 15 s (one TTL) ahead of the server's: a holder
        // renewing every 5 s is answered with an expiry 10 s on, which reads as 5 s past. The
        // documented bound (KeptLease, LeaseKeeper) is one acquire per two thirds of a TTL per waiter.
        waitBehindAnotherHolder(Duration.ofSeconds(-5));
        for (int step = 0; step < 300; step++) { // 30 s in steps of 100 ms
            scheduler.advance(Duration.ofMillis(100));
            if (!calls.nothingPending()) {
                answerHeldByOther(Duration.ofSeconds(-5));
            }
        }
        assertTrue(calls.made().size() <= 4, "30 s behind a held key cost " + calls.made().size()
                + " acquires, not the 3 or 4 of one per 10 s");
    }

    @Test
    void aWakeReplacesTheOneBeforeSoTimersNeverPileUp() {
        waitBehindAnotherHolder(Duration.ofSeconds(10));
        scheduler.advance(Duration.ofSeconds(1));
        // The key is freed and taken by a third holder before us; its lease runs 15 s from here.
        keeper.keyChanged(change("released", 9));
        scheduler.advance(Duration.ofMillis(25));
        answerHeldByOther(Duration.ofSeconds(15));

        scheduler.advance(Duration.ofSeconds(14));
        assertTrue(calls.nothingPending(), "the wake for the first holder's expiry still fired: " + calls.made());
    }

    @Test
    void aReleaseThatArrivesWhileAnAcquireIsInFlightIsNotMissed() {
        keeper.start();
        scheduler.runDue();
        ScriptedCalls.Call inFlight = calls.next("acquire");
        keeper.keyChanged(change("released", 9));
        scheduler.advance(Duration.ofMillis(25));

        // The answer was made before the release: the key looked held.
        inFlight.answer().complete(new Answers.Acquire.HeldByOther(others("other", 5, Duration.ofSeconds(10))));
        scheduler.advance(Duration.ofMillis(25));

        calls.next("acquire");
    }

    @Test
    void aSuccessorOwnsOnTheGrantOfItsYesWithNoRenewAndNoTimerBetween() {
        waitBehindAnotherHolder(Duration.ofSeconds(10));
        long before = scheduler.nanoTime();
        keeper.submit(new KeeperEvent.Expecting()); // its candidacy said yes to the owner's handover check
        keeper.keyChanged(change("handed-over", 20, SELF)); // republished as the write lands: before the grant
        keeper.submit(new KeeperEvent.Granted(mine(20, 20), before));
        scheduler.runDue();
        assertEquals(before, scheduler.nanoTime(), "the clock did not move");
        assertEquals(List.of("owner 20 20"), told, "owner at the handover's own fence (ADR-046)");
        assertTrue(calls.nothingPending(), "no renew raced the grant: " + calls.made());
    }

    @Test
    void aSuccessorWhoseGrantIsLostAcquiresShortlyAfterItsEventAndOwnsOnItsOwnRenew() {
        waitBehindAnotherHolder(Duration.ofSeconds(10));
        keeper.submit(new KeeperEvent.Expecting());
        keeper.keyChanged(change("handed-over", 20, SELF));
        scheduler.runDue();
        scheduler.advance(Duration.ofNanos(HandoverRules.GRANT_WAIT_NANOS - 1));
        assertTrue(calls.nothingPending(), "the grant may still come: " + calls.made());
        scheduler.advance(Duration.ofNanos(1));
        answer("acquire", granted(20));
        answer("renew", renewed(21, 20));
        assertEquals(List.of("owner 20 21"), told);
    }

    @Test
    void aHandedOverEventWithNoYesOfItsOwnIsConfirmedByARenewAtOnce() {
        waitBehindAnotherHolder(Duration.ofSeconds(10));
        long before = scheduler.nanoTime();
        keeper.keyChanged(change("handed-over", 20, SELF)); // e.g. its yes is long past: the write was slow
        scheduler.runDue();
        answer("renew", renewed(21, 20));
        assertEquals(before, scheduler.nanoTime(), "the clock did not move");
        assertEquals(List.of("owner 20 21"), told, "owner on the event and its own renew, no timer waited for");
    }

    /** From the s35 review: a yes to a check that named no id (a dagnats before ADR-046) is granted nothing. */
    @Test
    void aYesToACheckOfADagnatsBeforeTheGrantIsConfirmedByARenewOnTheEventAtOnce() {
        waitBehindAnotherHolder(Duration.ofSeconds(10));
        long before = scheduler.nanoTime();
        keeper.submit(new KeeperEvent.Expecting(false));
        keeper.keyChanged(change("handed-over", 20, SELF));
        scheduler.runDue();
        answer("renew", renewed(21, 20));
        assertEquals(before, scheduler.nanoTime(), "no grant was waited for: none can come");
        assertEquals(List.of("owner 20 21"), told);
    }

    @Test
    void aSuccessorWhoseHandedOverEventIsLostAsksSoonAfterItsYes() {
        waitBehindAnotherHolder(Duration.ofSeconds(10));
        keeper.submit(new KeeperEvent.Expecting());
        scheduler.runDue();
        scheduler.advance(Duration.ofNanos(HandoverRules.EXPECTING_NANOS - 1));
        assertTrue(calls.nothingPending(), "the event may still come: " + calls.made());
        scheduler.advance(Duration.ofNanos(1));
        calls.next("acquire");
    }
}
