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
 * Two live processes under one holder id (an old one paused or partitioned while its
 * restart took over): the keeper of the one that finds a write under its id that it did
 * not make stops acting as owner and stays off that acquisition, instead of taking it back
 * and taking turns with the other for good (review of the edges, finding 1), and it
 * refuses a forward fenced above its own last write (finding 2).
 */
class LeaseKeeperTwinTest {

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

    /** A lease of "me" as its acquisition wrote it (expires_at says when it was last written). */
    private static LeaseView lease(long revision, Instant acquiredAt) {
        return new LeaseView(new LeaseKey("k"), new HolderId("me"), new Fence(revision), acquiredAt,
                acquiredAt.plus(TTL.duration()), TTL);
    }

    private void answer(String operation, Object answer) {
        calls.next(operation).answer().complete(answer);
        scheduler.runDue();
    }

    private void becomeOwner() {
        keeper.start();
        scheduler.runDue();
        answer("acquire", new Answers.Acquire.Granted(lease(5, ACQUIRED)));
        answer("renew", new Answers.Renew.Renewed(lease(6, ACQUIRED)));
        assertTrue(lease.isOwner());
    }

    private static Optional<LeaseChange> renewedEvent(long sequence) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Nats-Sequence", Long.toString(sequence));
        headers.put(LeaseHeaders.EVENT, "renewed");
        headers.put(LeaseHeaders.HOLDER, "me");
        return LeaseChange.read(LeaseSubjects.changed(new LeaseKey("k")), headers::get, Instant.EPOCH);
    }

    private List<String> operations() {
        return calls.made().stream().map(ScriptedCalls.Call::operation).toList();
    }

    @Test
    void aProcessWhoseRenewIsLostToAWriteUnderItsIdThatItDidNotMakeStaysOffThatAcquisition() {
        becomeOwner();
        scheduler.advance(TTL.duration().dividedBy(3));
        answer("renew", new Answers.Renew.Lost("revision 6 is not the current fence 9"));
        assertEquals("stopped LOST", told.get(told.size() - 1));

        scheduler.advance(Duration.ofMillis(100));
        // Every write of this process was answered, and none was 9: another process renews under "me".
        answer("acquire", new Answers.Acquire.Granted(lease(9, ACQUIRED)));

        assertTrue(calls.nothingPending(), "it must not renew the other process's write: " + operations());
        assertFalse(lease.isOwner());
        assertEquals(List.of("owner 6", "stopped LOST"), told);
    }

    @Test
    void aLostRenewAfterOneThatWentUnansweredIsNoSignOfAnotherProcess() {
        becomeOwner();
        scheduler.advance(TTL.duration().dividedBy(3));
        // Its outcome is unknown: it may have written 7.
        calls.next("renew").answer().completeExceptionally(new DagnatsException(ErrorKind.UNAVAILABLE, "timed out"));
        scheduler.runDue();
        scheduler.advance(Duration.ofSeconds(1));
        answer("renew", new Answers.Renew.Lost("revision 6 is not the current fence 7"));
        scheduler.advance(Duration.ofMillis(100));
        answer("acquire", new Answers.Acquire.Granted(lease(7, ACQUIRED)));

        assertEquals(new Fence(7), calls.next("renew").presented(), "7 may be its own write: it proves time left as ever");
    }

    @Test
    void aNewAcquisitionUnderItsIdIsTakenAsEver() {
        aProcessWhoseRenewIsLostToAWriteUnderItsIdThatItDidNotMakeStaysOffThatAcquisition();
        // The key was freed meanwhile, and this process's acquire made a new acquisition.
        scheduler.advance(TTL.duration().plusSeconds(1));
        answer("acquire", new Answers.Acquire.Granted(lease(12, ACQUIRED.plusSeconds(30))));

        answer("renew", new Answers.Renew.Renewed(lease(13, ACQUIRED.plusSeconds(30))));
        assertTrue(lease.isOwner());
    }

    @Test
    void aRenewEventUnderItsIdThatItDidNotWriteEndsOwnershipAtOnce() {
        becomeOwner();
        keeper.keyChanged(renewedEvent(9));
        scheduler.runDue();

        assertFalse(lease.isOwner(), "revision 9 under 'me' was written by another process");
        assertEquals("stopped LOST", told.get(told.size() - 1));
    }

    @Test
    void aRenewEventAboveItsFenceWhileItsOwnRenewIsInFlightIsItsOwn() {
        becomeOwner();
        scheduler.advance(TTL.duration().dividedBy(3));
        ScriptedCalls.Call renew = calls.next("renew");
        keeper.keyChanged(renewedEvent(7));
        scheduler.runDue();
        assertTrue(lease.isOwner(), "7 may be the renew in flight");

        renew.answer().complete(new Answers.Renew.Renewed(lease(7, ACQUIRED)));
        scheduler.runDue();
        assertTrue(lease.isOwner());
    }

    @Test
    void aForwardFencedAboveItsLastWriteIsRefusedUnlessARenewOfItsOwnIsInFlight() {
        becomeOwner();
        Ownership ownership = keeper.ownership();
        assertTrue(ownership.admit(Optional.of(new Fence(6))).isPresent());
        assertTrue(ownership.admit(Optional.of(new Fence(9))).isEmpty(), "9 was written under 'me' by another process");

        scheduler.advance(TTL.duration().dividedBy(3));
        ScriptedCalls.Call renew = calls.next("renew");
        assertTrue(ownership.admit(Optional.of(new Fence(7))).isPresent(), "7 may be the renew in flight");
        renew.answer().complete(new Answers.Renew.Renewed(lease(7, ACQUIRED)));
        scheduler.runDue();
        assertTrue(ownership.admit(Optional.of(new Fence(7))).isPresent());
        assertTrue(ownership.admit(Optional.of(new Fence(8))).isEmpty());
    }
}
