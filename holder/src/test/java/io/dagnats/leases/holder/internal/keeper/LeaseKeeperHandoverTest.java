package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.Succession;
import io.dagnats.leases.holder.TenureWork;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.holder.internal.ManualScheduler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A keeper's handover as its runner performs it (ADR-042): by the time the handover call is made,
 * this process no longer acts as owner, its tenure's work was cancelled (at once) and its listener
 * has returned from {@code stoppedOwning}; a handover that does not land is owned again only after
 * a renew of its own.
 */
class LeaseKeeperHandoverTest {

    private final ManualScheduler scheduler = new ManualScheduler();
    private final ScriptedCalls calls = new ScriptedCalls();
    private final List<String> told = new CopyOnWriteArrayList<>();
    private final OwnershipListener listener = new OwnershipListener() {
        @Override
        public void becameOwner(Tenure tenure, TenureWork work) {
            told.add("owner " + tenure.fence());
            work.onCancel(() -> told.add("work cancelled"));
        }

        @Override
        public void stoppedOwning(StopReason reason) {
            told.add("stopped " + reason);
        }
    };

    /** The listener's thread, run by the test: a listener still in stoppedOwning holds the handover back. */
    private final Deque<Runnable> listenerThread = new ArrayDeque<>();
    private boolean listenerRunsAtOnce = true;

    private void tellListener(Runnable call) {
        if (listenerRunsAtOnce) {
            call.run();
        } else {
            listenerThread.add(call);
        }
    }

    private KeptLeaseHandle keep(KeepOptions options) {
        LeaseKeeper keeper = KeeperHarness.keeper(calls, scheduler, listener, options,
                (key, window) -> CompletableFuture.completedFuture(List.of(HandoverRulesTest.OLD)), this::tellListener);
        KeptLeaseHandle lease = new KeptLeaseHandle(keeper, () -> { });
        keeper.start();
        scheduler.runDue();
        answer("acquire", KeeperHarness.granted(5));
        answer("renew", KeeperHarness.renewed(6, 5));
        return lease;
    }

    private void answer(String operation, Object answer) {
        calls.next(operation).answer().complete(answer);
        scheduler.runDue();
    }

    @Test
    void closeHandsOverOnlyAfterOwnershipEndedTheListenerWasToldAndTheWorkWasCancelled() {
        KeptLeaseHandle lease = keep(KeepOptions.defaults());
        CompletableFuture<Void> closed = lease.keeper().beginClose();
        scheduler.runDue();

        ScriptedCalls.Call handover = calls.next("handover");
        assertEquals(new Fence(6), handover.presented());
        assertFalse(lease.isOwner(), "not owner when the handover is sent");
        assertEquals(List.of("owner 6", "work cancelled", "stopped HANDED_OVER"), told);
        assertFalse(closed.isDone(), "the close ends with the handover's answer");

        handover.answer().complete(new Answers.Handover.HandedOver(KeeperHarness.others("old", 7, Duration.ofSeconds(15))));
        scheduler.runDue();
        assertTrue(closed.isDone());
        assertTrue(calls.nothingPending(), "no release after a handover: " + calls.made());
        assertEquals(Optional.of(OwnershipListener.StopReason.HANDED_OVER), lease.lastStop());
    }

    @Test
    void aListenerStillInStoppedOwningHoldsTheHandoverBack() {
        KeptLeaseHandle lease = keep(KeepOptions.defaults());
        listenerRunsAtOnce = false;
        lease.keeper().beginClose();
        scheduler.runDue();
        assertFalse(lease.isOwner());
        assertTrue(calls.nothingPending(), "no handover while the listener has not returned: " + calls.made());

        listenerThread.poll().run();
        scheduler.runDue();
        assertEquals(new Fence(6), calls.next("handover").presented(), "sent once it returned");
        assertEquals(List.of("owner 6", "work cancelled", "stopped HANDED_OVER"), told);
    }

    @Test
    void aYieldToASuccessorThatIsGoneOwnsAgainOnlyAfterARenewOfItsOwn() {
        KeptLeaseHandle lease = keep(KeepOptions.defaults().candidacy(0, "1.0")
                .succession(Succession.oldestVersionFirst()).minCandidacy(Duration.ZERO));

        answer("handover", new Answers.Handover.NoSuccessor("no responders"));
        assertFalse(lease.isOwner(), "no_successor: not owner until the renew answers");
        assertEquals(List.of("owner 6", "work cancelled", "stopped PREFERRED_CANDIDATE"), told);

        ScriptedCalls.Call renew = calls.next("renew");
        assertEquals(new Fence(6), renew.presented(), "renews the fence it tried to hand over");
        renew.answer().complete(KeeperHarness.renewed(7, 5));
        scheduler.runDue();
        assertTrue(lease.isOwner(), "owner again, under a new belief window");
        assertEquals(List.of("owner 6", "work cancelled", "stopped PREFERRED_CANDIDATE", "owner 7"), told);
        assertEquals(Optional.of(OwnershipListener.StopReason.PREFERRED_CANDIDATE), lease.lastStop());
        scheduler.advance(KeeperHarness.TTL.duration().dividedBy(3));
        assertEquals("renew", calls.next("renew").operation(), "and keeps renewing, not yielding again within the interval");
    }

    @Test
    void theEndOfAYieldsDrainNeitherHandsOverNorReleasesALaterTenure() {
        // The listener's thread is held, so each drain ends only when the test runs what it was told.
        listenerRunsAtOnce = false;
        // A bound no slow machine reaches: each drain here ends when the test says, never by its bound.
        KeptLeaseHandle lease = keep(KeepOptions.defaults().candidacy(0, "1.0")
                .succession(Succession.oldestVersionFirst()).minCandidacy(Duration.ZERO).handoverBound(Duration.ofMinutes(5)));
        assertFalse(lease.isOwner(), "yielded to the older candidate at once: drain #1 waits for stoppedOwning");
        assertTrue(calls.nothingPending(), "no handover before drain #1 ends: " + calls.made());

        // Revoked while drain #1 runs: a waiter, then owner again under tenure 9.
        lease.keeper().keyChanged(KeeperHarness.change("revoked", 8, KeeperHarness.SELF));
        scheduler.runDue();
        answer("acquire", KeeperHarness.granted(9));
        answer("renew", KeeperHarness.renewed(10, 9));
        assertTrue(lease.isOwner(), "owner again, not yielding again within the yield interval");

        // Closed: it hands tenure 9 over once drain #2 (this tenure's stoppedOwning) has ended.
        lease.keeper().beginClose();
        scheduler.runDue();
        assertFalse(lease.isOwner());

        // Drain #1 ends first: the first tenure's becameOwner and stoppedOwning return.
        listenerThread.poll().run();
        listenerThread.poll().run();
        scheduler.runDue();
        assertTrue(calls.nothingPending(), "the end of drain #1 moved the later tenure while its own"
                + " stoppedOwning had not returned: " + calls.made());

        // Drain #2 ends: now, and only now, the handover of the later tenure's fence.
        listenerThread.poll().run();
        listenerThread.poll().run();
        scheduler.runDue();
        assertEquals(new Fence(10), calls.next("handover").presented());
        assertTrue(calls.nothingPending(), "one handover: " + calls.made());
    }

    @Test
    void aDeadlineWhileChoosingASuccessorEndsOwnershipAndReleasesAfterTheDrain() {
        // Candidates that never answer: the close's choosing lasts until the tenure's deadline.
        LeaseKeeper keeper = KeeperHarness.keeper(calls, scheduler, listener, KeepOptions.defaults(),
                (key, window) -> new CompletableFuture<>(), Runnable::run);
        KeptLeaseHandle lease = new KeptLeaseHandle(keeper, () -> { });
        keeper.start();
        scheduler.runDue();
        answer("acquire", KeeperHarness.granted(5));
        answer("renew", KeeperHarness.renewed(6, 5));
        CompletableFuture<Void> closed = keeper.beginClose();
        scheduler.runDue();
        assertEquals(List.of("owner 6"), told, "still owner while its candidates may answer");

        scheduler.advance(KeeperHarness.TTL.duration());
        assertFalse(lease.isOwner());
        assertEquals(List.of("owner 6", "work cancelled", "stopped DEADLINE_PASSED"), told,
                "the deadline ends ownership while choosing, as in every owner phase");
        ScriptedCalls.Call release = calls.next("release");
        assertEquals(new Fence(6), release.presented(), "released once the tenure's work returned");
        assertEquals(Optional.of(OwnershipListener.StopReason.DEADLINE_PASSED), lease.lastStop());
        release.answer().complete(new Answers.Release.Released(KeeperHarness.KEY, KeeperHarness.ME, new Fence(6)));
        scheduler.runDue();
        assertTrue(closed.isDone(), "and the close ends");
    }

    @Test
    void anAbandonWhileYieldingHandsNothingOverAndLeavesTheKeyToTheTtl() {
        listenerRunsAtOnce = false;
        KeptLeaseHandle lease = keep(KeepOptions.defaults().candidacy(0, "1.0")
                .succession(Succession.oldestVersionFirst()).minCandidacy(Duration.ZERO).handoverBound(Duration.ofMinutes(5)));
        assertFalse(lease.isOwner(), "yielding: the drain waits for stoppedOwning");

        CompletableFuture<Void> closed = lease.keeper().beginAbandon();
        scheduler.runDue();
        while (!listenerThread.isEmpty()) {
            listenerThread.poll().run();
        }
        scheduler.advance(KeeperHarness.TTL.duration());
        assertEquals(List.of("acquire", "renew"), calls.made().stream().map(ScriptedCalls.Call::operation).toList(),
                "close(false) neither hands over nor releases nor renews");
        assertTrue(closed.isDone(), "the abandon ends at once");
    }
}
