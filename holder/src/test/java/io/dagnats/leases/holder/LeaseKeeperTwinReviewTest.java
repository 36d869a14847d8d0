package io.dagnats.leases.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.DagnatsException;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.LeaseView;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Review of 3436dc1 (twin detection, branch review-twin): twin cases it missed, a close
 * that released the other process's lease, and a renew answered after its lease's revoke.
 * (Left out: a process partitioned for longer than a TTL keeps its renews' outcomes
 * uncertain, so after the heal it may take its restart's acquisition back once; the
 * restart then finds it and yields.) Then round 2 (branch review-twin2): a bucket made
 * elsewhere after a revoke was seen, and a pause begun with a renew in flight. Each test is one
 * process's keeper under holder id "me"; the other process under "me" (the restart) is
 * only seen through the answers and events it causes.
 */
class LeaseKeeperTwinReviewTest {

    private static final LeaseTtl TTL = new LeaseTtl(15_000);
    private static final Instant ACQUIRED = Instant.parse("2026-12-01T06:00:00Z");

    private final ManualScheduler scheduler = new ManualScheduler();
    private final ScriptedCalls calls = new ScriptedCalls();
    private final List<String> told = new ArrayList<>();

    private final OwnershipListener listener = new OwnershipListener() {
        @Override
        public void becameOwner(io.dagnats.leases.domain.Tenure tenure) {
            told.add("owner " + tenure.fence());
        }

        @Override
        public void stoppedOwning(StopReason reason) {
            told.add("stopped " + reason);
        }
    };

    private final LeaseKeeper keeper = new LeaseKeeper(new LeaseKey("k"), new HolderId("me"), TTL, calls, scheduler,
            scheduler, listener, new HolderTelemetry(OpenTelemetry.noop(), Map::of, () -> null));
    private final KeptLease lease = new KeptLease(keeper, () -> { });

    /** A lease of "me" acquired at {@code acquiredAt} and last renewed at {@code renewedAt}. */
    private static LeaseView lease(long revision, Instant acquiredAt, Instant renewedAt) {
        return new LeaseView(new LeaseKey("k"), new HolderId("me"), new Fence(revision), acquiredAt,
                renewedAt.plus(TTL.duration()), TTL);
    }

    private void answer(String operation, Object answer) {
        calls.next(operation).answer().complete(answer);
        scheduler.runDue();
    }

    private void becomeOwner() {
        keeper.start();
        scheduler.runDue();
        answer("acquire", new Answers.Acquire.Granted(lease(5, ACQUIRED, ACQUIRED)));
        answer("renew", new Answers.Renew.Renewed(lease(6, ACQUIRED, ACQUIRED)));
        assertTrue(lease.isOwner());
    }

    private static Optional<LeaseChange> event(long sequence, String event) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Nats-Sequence", Long.toString(sequence));
        if (event == null) {
            headers.put("Nats-Marker-Reason", "MaxAge");
        } else {
            headers.put(LeaseHeaders.EVENT, event);
            headers.put(LeaseHeaders.HOLDER, "me");
        }
        return LeaseChange.read(LeaseSubjects.changed(new LeaseKey("k")), headers::get, Instant.EPOCH);
    }

    private List<String> made() {
        return calls.made().stream().map(call -> call.operation() + (call.presented() == null ? ""
                : " " + call.presented().revision())).toList();
    }

    /**
     * Paused past the TTL: the key expired (revision 9), the restart acquired it anew (10,
     * acquired_at +20 s) and renews it (11, 12). On resuming, the old process's due renew
     * answers lost, and its acquire grants an acquisition that is neither the one it renewed
     * nor one it made (it had no acquire in flight when ACQUIRED 10 under "me" went by, and the
     * lease was renewed since). keptByAnotherProcess only knows the acquisition it renewed, so
     * it renews 12 and takes the key from the restart (which then stays off for good).
     */
    @Test
    void anOldProcessPausedPastTheTtlStaysOffTheAcquisitionItsRestartMade() {
        becomeOwner();
        // The pause ends: its renew timer and its deadline are long past.
        scheduler.advance(TTL.duration().plusSeconds(10));
        assertEquals("stopped DEADLINE_PASSED", told.get(told.size() - 1));
        // The events that queued during the pause: expiry, the restart's acquire and renewals.
        keeper.keyChanged(event(9, null));
        keeper.keyChanged(event(10, "acquired"));
        keeper.keyChanged(event(11, "renewed"));
        keeper.keyChanged(event(12, "renewed"));
        scheduler.runDue();
        answer("renew", new Answers.Renew.Lost("revision 6 is not the current fence 12"));
        scheduler.advance(Duration.ofMillis(100));
        Instant restartAcquired = ACQUIRED.plusSeconds(20);
        answer("acquire", new Answers.Acquire.Granted(lease(12, restartAcquired, restartAcquired.plusSeconds(5))));
        scheduler.runDue();

        assertTrue(calls.nothingPending(), "it must not renew the restart's acquisition (acquired and renewed by"
                + " another process under 'me'): calls " + made());
        assertFalse(lease.isOwner());
    }

    /**
     * The event path names the wrong acquisition: a RENEWED event under "me" above its fence
     * (the key was revoked, the REVOKED event lost, and the other process acquired it anew at
     * 8 and renewed it at 9) makes it stop and warn that another process keeps the key, but it
     * records its OWN old acquisition as the twin's (twinAcquiredAt = ownAcquiredAt). The
     * acquire 50 ms later grants the other process's new acquisition, which is not the one
     * recorded, so it renews it at once: it takes the key from the process it just found.
     */
    @Test
    void aProcessThatFoundAnotherKeepingTheKeyDoesNotTakeItRightBack() {
        becomeOwner();
        keeper.keyChanged(event(9, "renewed"));
        scheduler.runDue();
        assertEquals("stopped LOST", told.get(told.size() - 1), "it found the other process");

        scheduler.advance(Duration.ofMillis(100));
        Instant otherAcquired = ACQUIRED.plusSeconds(3);
        answer("acquire", new Answers.Acquire.Granted(lease(9, otherAcquired, otherAcquired.plusSeconds(1))));
        scheduler.runDue();

        assertTrue(calls.nothingPending(), "it warned that another process keeps the key, then renews that process's"
                + " write: calls " + made());
        assertFalse(lease.isOwner());
    }

    /**
     * Not of 3436dc1 (found on the way; it fails on its parent too): a revoke written between
     * this process's renew (7) and that renew's answer. The REVOKED event (8) arrives while the
     * renew is in flight: it stops owning and backs off. Then the answer, Renewed 7, comes in on
     * time, and onRenewed confirms a new tenure under 7 and tells becameOwner: the process owns
     * a key the operator revoked, while a waiting replica may already hold it, until its next
     * renew (a third of a TTL) answers lost.
     */
    @Test
    void aRenewAnsweredAfterTheRevokeOfItsLeaseWasSeenDoesNotMakeItOwnerAgain() {
        becomeOwner();
        scheduler.advance(TTL.duration().dividedBy(3));
        ScriptedCalls.Call renew = calls.next("renew");
        Map<String, String> headers = new HashMap<>();
        headers.put("Nats-Sequence", "8");
        headers.put(LeaseHeaders.EVENT, "revoked");
        headers.put(LeaseHeaders.HOLDER, "me");
        keeper.keyChanged(LeaseChange.read(LeaseSubjects.changed(new LeaseKey("k")), headers::get, Instant.EPOCH));
        scheduler.runDue();
        assertFalse(lease.isOwner(), "revoked");

        renew.answer().complete(new Answers.Renew.Renewed(lease(7, ACQUIRED, ACQUIRED.plusSeconds(5))));
        scheduler.runDue();

        assertFalse(lease.isOwner(), "its renew 7 was written before the revoke 8 it has seen: " + told);
    }

    /**
     * A process that stays off the acquisition another process keeps under its id is closed
     * (the operator stops the stray process) while one of its fallback acquires is in flight.
     * The acquire grants the other process's lease, and the close releases whatever the call
     * in flight turns out to hold: it releases the other process's lease, freeing the key
     * under a process that believes it owns it, for any waiting replica to take.
     */
    @Test
    void closingAProcessThatStaysOffReleasesNothingOfTheOtherProcess() {
        becomeOwner();
        scheduler.advance(TTL.duration().dividedBy(3));
        answer("renew", new Answers.Renew.Lost("revision 6 is not the current fence 9"));
        scheduler.advance(Duration.ofMillis(100));
        answer("acquire", new Answers.Acquire.Granted(lease(9, ACQUIRED, ACQUIRED.plusSeconds(5))));
        assertTrue(calls.nothingPending(), "it stays off the other process's acquisition: " + made());

        // Its fallback wake-up asks again; the close comes while that acquire is in flight.
        scheduler.advance(TTL.duration().plusSeconds(5));
        ScriptedCalls.Call acquire = calls.next("acquire");
        keeper.beginClose();
        scheduler.runDue();
        acquire.answer().complete(new Answers.Acquire.Granted(lease(12, ACQUIRED, ACQUIRED.plusSeconds(15))));
        scheduler.runDue();

        assertFalse(made().contains("release 12"), "it released the lease the other process keeps: " + made());
    }

    // Round 2 (review of 42de46c, branch review-twin2).

    /**
     * endedAt is never forgotten, and it compares fences of one bucket with the next: a bucket
     * made elsewhere (ADR-026: "a bucket made elsewhere starts at 1", e.g. an operator's
     * `nats kv add` after deleting it) hands out fences below a revoke or expiry this process saw
     * in the old one. Every renew of this process (a single process, unique holder id) then
     * answers Renewed below endedAt: it never owns again, yet it keeps the key held on the server,
     * renewing it every third of a TTL, so no other holder can take it either. Before 42de46c it
     * owned again after the store's grace.
     */
    @Test
    void aProcessOwnsAgainInABucketMadeElsewhereAfterItSawARevokeInTheOldOne() {
        becomeOwner();
        keeper.keyChanged(event(7, "revoked"));
        scheduler.runDue();
        assertFalse(lease.isOwner(), "revoked");

        // The bucket is deleted and made again elsewhere: its sequences start at 1.
        Instant again = ACQUIRED.plusSeconds(60);
        scheduler.advance(TTL.duration());
        answer("acquire", new Answers.Acquire.Granted(lease(1, again, again)));
        answer("renew", new Answers.Renew.Renewed(lease(2, again, again)));
        long revision = 2;
        for (int round = 0; round < 6 && !lease.isOwner(); round++) {
            scheduler.advance(TTL.duration().dividedBy(3));
            ScriptedCalls.Call call = calls.next(calls.made().get(calls.made().size() - 1).operation());
            if (call.operation().equals("acquire")) {
                call.answer().complete(new Answers.Acquire.Granted(lease(revision, again, again.plusSeconds(revision))));
            } else {
                revision++;
                call.answer().complete(new Answers.Renew.Renewed(lease(revision, again, again.plusSeconds(revision))));
            }
            scheduler.runDue();
        }

        assertTrue(lease.isOwner(), "its own renews, the only writes to the key, never make it owner: calls "
                + made() + ", told " + told);
    }

    /**
     * The long pause of 42de46c's first case, with the pause landing while a renew (6) is in
     * flight: on resuming, its timeout fires (SIGSTOP, a VM migration: the delayer thread and the
     * reply's reader race, and the overdue timeout often wins), so uncertainWrite is set, and rule 2b
     * (like 2a) is skipped whenever a write is uncertain. But an uncertain renew of this process
     * presented a fence of ITS acquisition (acquired_at ACQUIRED): it cannot have produced a write of
     * an acquisition acquired 20 s later. The old process renews the restart's new acquisition and
     * takes the key; the restart, finding the old one's write above its own, stays off for good.
     * One in-flight renew during a pause, not a partition's run of unanswered renews (ADR-033).
     */
    @Test
    void anOldProcessPausedWithARenewInFlightStaysOffTheAcquisitionItsRestartMade() {
        becomeOwner();
        scheduler.advance(TTL.duration().dividedBy(3));
        ScriptedCalls.Call inFlight = calls.next("renew");
        // The pause: the deadline passes with the renew of 6 in flight.
        scheduler.advance(TTL.duration().plusSeconds(10));
        assertEquals("stopped DEADLINE_PASSED", told.get(told.size() - 1));
        keeper.keyChanged(event(9, null));
        keeper.keyChanged(event(10, "acquired"));
        keeper.keyChanged(event(11, "renewed"));
        keeper.keyChanged(event(12, "renewed"));
        scheduler.runDue();
        inFlight.answer().completeExceptionally(new DagnatsException(ErrorKind.UNAVAILABLE,
                "no answer from dagnats to renew (TimeoutException)"));
        scheduler.runDue();
        scheduler.advance(Duration.ofMillis(600));
        Instant restartAcquired = ACQUIRED.plusSeconds(20);
        answer("acquire", new Answers.Acquire.Granted(lease(12, restartAcquired, restartAcquired.plusSeconds(5))));
        scheduler.runDue();

        assertTrue(calls.nothingPending(), "its only uncertain write renewed its own acquisition, not one made 20 s"
                + " later and renewed since: it must not renew it: calls " + made());
        assertFalse(lease.isOwner());
    }
}
