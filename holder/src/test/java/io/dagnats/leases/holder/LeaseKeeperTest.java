package io.dagnats.leases.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The keeping of one lease, against scripted calls and a clock that moves only when told, seen through its handle. */
class LeaseKeeperTest {

    private static final LeaseTtl TTL = new LeaseTtl(15_000);
    private static final Duration MARGIN = Duration.ofMillis(15_000 / 100 + 100);

    private final ManualScheduler scheduler = new ManualScheduler();
    private final ScriptedCalls calls = new ScriptedCalls();
    private final List<String> told = new ArrayList<>();
    private boolean listenerThrows;

    private final OwnershipListener listener = new OwnershipListener() {
        @Override
        public void becameOwner(Tenure tenure) {
            told.add("owner " + tenure.start() + " " + tenure.fence());
            if (listenerThrows) {
                throw new IllegalStateException("a bug in the user's listener");
            }
        }

        @Override
        public void renewed(Tenure tenure) {
            told.add("renewed " + tenure.fence());
            if (listenerThrows) {
                throw new IllegalStateException("a bug in the user's listener");
            }
        }

        @Override
        public void stoppedOwning(StopReason reason) {
            told.add("stopped " + reason);
        }
    };

    private final LeaseKeeper keeper = new LeaseKeeper(new LeaseKey("k"), new HolderId("me"), TTL, calls, scheduler,
            scheduler, listener, new HolderTelemetry(OpenTelemetry.noop(), Map::of, () -> null));
    private final KeptLease lease = new KeptLease(keeper, () -> { });

    private void answer(String operation, Object answer) {
        calls.next(operation).answer().complete(answer);
        scheduler.runDue();
    }

    private static Answers.Acquire granted(long revision) {
        return new Answers.Acquire.Granted(ScriptedCalls.lease("me", revision));
    }

    private static Answers.Renew renewed(long revision) {
        return new Answers.Renew.Renewed(ScriptedCalls.lease("me", revision));
    }

    /** Campaigns, is granted {@code granted}, and confirms it with a renew answered {@code renewed}. */
    private long becomeOwner(long granted, long renewed) {
        keeper.start();
        scheduler.runDue();
        answer("acquire", granted(granted));
        long renewSentAt = scheduler.nanoTime();
        answer("renew", renewed(renewed));
        return renewSentAt;
    }

    @Test
    void aGrantIsNotOwnershipUntilARenewOfOurOwnSucceeds() {
        keeper.start();
        scheduler.runDue();
        answer("acquire", granted(5));

        assertFalse(lease.isOwner(), "a grant may return an earlier write whose TTL is almost spent");
        ScriptedCalls.Call confirm = calls.next("renew");
        assertEquals(new Fence(5), confirm.presented());
        confirm.answer().complete(renewed(6));
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
        answer("renew", renewed(6));

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
        confirm.answer().complete(renewed(6));
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
        answer("renew", renewed(9));

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

    private static Optional<LeaseChange> change(String event, long sequence) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Nats-Sequence", Long.toString(sequence));
        if (event.equals("expired")) {
            headers.put("Nats-Marker-Reason", "MaxAge");
        } else {
            headers.put(LeaseHeaders.EVENT, event);
            headers.put(LeaseHeaders.HOLDER, event.equals("acquired") ? "other" : "me");
        }
        return LeaseChange.read(LeaseSubjects.changed(new LeaseKey("k")), headers::get, Instant.EPOCH);
    }

    @Test
    void anOwnerStopsAtOnceWhenAReleaseRevokeOrExpiryAfterItsTenureBeganArrives() {
        for (String ending : List.of("revoked", "released", "expired")) {
            LeaseKeeperTest fresh = new LeaseKeeperTest();
            fresh.becomeOwner(5, 6);

            fresh.keeper.keyChanged(fresh.change(ending, 7));
            fresh.scheduler.runDue();

            assertFalse(fresh.lease.isOwner(), ending);
            assertEquals("stopped LOST", fresh.told.get(fresh.told.size() - 1), ending);
        }
    }

    @Test
    void eventsThatDoNotEndThisTenureLeaveTheOwnerAlone() {
        becomeOwner(5, 6);
        // An ending older than this tenure (a late event of an earlier one), our own renewal, or no event at all.
        for (Optional<LeaseChange> change : List.of(change("revoked", 4), change("renewed", 7), change("acquired", 8),
                Optional.<LeaseChange>empty())) {
            keeper.keyChanged(change);
            scheduler.runDue();
            assertTrue(lease.isOwner(), String.valueOf(change));
        }
    }

    @Test
    void aListenerThatThrowsNeverStopsTheLeaseBeingKept() {
        listenerThrows = true;
        becomeOwner(5, 6);
        assertTrue(lease.isOwner());

        scheduler.advance(TTL.duration().dividedBy(3));
        answer("renew", renewed(7));
        scheduler.advance(TTL.duration().dividedBy(3));
        answer("renew", renewed(8));

        assertEquals(new Fence(8), lease.fence().orElseThrow());
        assertEquals(List.of("owner 5 6", "renewed 7", "renewed 8"), told);
    }

    @Test
    void closeReleasesTheLeaseUnderTheFenceOfTheRenewInFlight() {
        becomeOwner(5, 6);
        scheduler.advance(TTL.duration().dividedBy(3));
        ScriptedCalls.Call renew = calls.next("renew");
        keeper.beginClose();
        scheduler.runDue();
        assertFalse(lease.isOwner(), "stops acting as owner at once");

        renew.answer().complete(renewed(7));
        scheduler.runDue();
        assertEquals(new Fence(7), calls.next("release").presented());
    }
}
