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
 * Review round 2 of 42de46c (branch review-twin2). One process's keeper under holder id "me";
 * any other process under "me" is only seen through the answers and events it causes.
 */
class LeaseKeeperTwinRound2Test {

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

    /** A lease of "me" acquired at {@code acquiredAt} and last written at {@code writtenAt}. */
    private static LeaseView lease(long revision, Instant acquiredAt, Instant writtenAt) {
        return new LeaseView(new LeaseKey("k"), new HolderId("me"), new Fence(revision), acquiredAt,
                writtenAt.plus(TTL.duration()), TTL);
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
