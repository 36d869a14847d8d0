package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Handover;
import io.dagnats.leases.domain.HandoverCheck;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Lost;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A handover writes only after the successor said it waits, and then only as one compare-and-set on
 * the revision read: a write that lands between the check and the handover wins, and nothing of the
 * handover is written (ADR-042).
 */
class HandOverLeaseTest extends LeaseUseCasesFixture {

    private static final Claimant SUCCESSOR = Claimant.of(BOB, new Incarnation("b1"));
    private static final HandoverCheck YES = new HandoverCheck("c1");

    private final AtomicInteger asked = new AtomicInteger();
    private SuccessorCheck.Reply successorSays = new SuccessorCheck.Reply.Waiting(YES, SuccessorCheck.Grant.NONE);
    private final HandOverLease handover = new HandOverLease(new LeaseWriter(store, known, clock),
            (key, successor, timeout) -> {
                asked.incrementAndGet();
                return CompletableFuture.completedFuture(successorSays);
            });

    @Test
    void aWaitingSuccessorGetsTheLeaseInOneWriteOnTheRevisionRead() {
        Lease alices = granted(acquire(ALICE));

        Handover answer = join(handover.execute(command(alices)));

        Lease bobs = assertInstanceOf(Handover.HandedOver.class, answer).lease();
        assertEquals(SUCCESSOR, bobs.claimant());
        assertEquals(bobs.revision(), bobs.tenure());
        assertEquals(2, store.applied().size());
        assertEquals(LeaseEvent.HANDED_OVER, store.applied().get(1).event());
        assertEquals(alices.revision().revision(), store.applied().get(1).expectedSequence());
    }

    @Test
    void theWriteNamesTheCheckTheSuccessorSaidYesTo() {
        Lease alices = granted(acquire(ALICE));

        assertInstanceOf(Handover.HandedOver.class, join(handover.execute(command(alices))));

        LeaseWrite.Put written = assertInstanceOf(LeaseWrite.Put.class, store.applied().get(1));
        assertEquals(Optional.of(YES), written.check(), "its change event tells the successor which yes it answers");
    }

    @Test
    void aSuccessorThatDoesNotWaitIsNoSuccessorAndNothingIsWritten() {
        Lease alices = granted(acquire(ALICE));
        successorSays = new SuccessorCheck.Reply.NotWaiting("nobody listens");

        CompletionException failed = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class,
                () -> join(handover.execute(command(alices))));

        assertEquals(ErrorKind.NO_SUCCESSOR, assertInstanceOf(LeaseFailure.class, failed.getCause()).kind());
        assertEquals(1, store.applied().size());
    }

    @Test
    void aWriteBetweenTheCheckAndTheHandoverWinsAndTheHandoverIsLost() {
        Lease alices = granted(acquire(ALICE));
        store.interleaveBeforeNextWrite(() -> join(renew.execute(
                new RenewLease.Command(KEY, ALICE, alices.revision(), Optional.empty()))));

        Handover answer = join(handover.execute(command(alices)));

        assertInstanceOf(Lost.class, answer);
        assertEquals(2, store.applied().size(), "the acquire and the renew; no handover");
        assertEquals(LeaseEvent.RENEWED, store.applied().get(1).event());
    }

    @Test
    void aCallerThatIsNotTheOwnerAtItsRevisionIsLostAndNothingIsWrittenOrGranted() {
        Lease alices = granted(acquire(ALICE));
        join(renew.execute(new RenewLease.Command(KEY, ALICE, alices.revision(), Optional.empty())));
        java.util.List<Lease> granted = new java.util.ArrayList<>();
        successorSays = new SuccessorCheck.Reply.Waiting(YES, granted::add);

        Handover answer = join(handover.execute(command(alices)));

        assertEquals(Lost.Reason.STALE_FENCE, assertInstanceOf(Lost.class, answer).reason());
        assertEquals(2, store.applied().size(), "the acquire and the renew; no handover");
        assertEquals(java.util.List.of(), granted, "the successor, asked while the key was read, is granted nothing");
    }

    @Test
    void theSuccessorIsAskedWhileTheKeyIsReadNotAfterTheRead() {
        Lease alices = granted(acquire(ALICE));
        int readsBefore = store.reads();
        java.util.concurrent.atomic.AtomicInteger readsWhenAsked = new java.util.concurrent.atomic.AtomicInteger(-1);
        HandOverLease handing = new HandOverLease(new LeaseWriter(store, known, clock), (key, successor, timeout) -> {
            readsWhenAsked.set(store.reads());
            return CompletableFuture.completedFuture(new SuccessorCheck.Reply.Waiting(YES, SuccessorCheck.Grant.NONE));
        });

        assertInstanceOf(Handover.HandedOver.class, join(handing.execute(command(alices))));

        assertEquals(readsBefore, readsWhenAsked.get(), "the check did not wait for the leader read");
    }

    @Test
    void theSuccessorIsGrantedExactlyTheWrittenLeaseOnce() {
        Lease alices = granted(acquire(ALICE));
        java.util.List<Lease> granted = new java.util.ArrayList<>();
        successorSays = new SuccessorCheck.Reply.Waiting(YES, granted::add);

        Handover answer = join(handover.execute(command(alices)));

        assertEquals(java.util.List.of(assertInstanceOf(Handover.HandedOver.class, answer).lease()), granted);
    }

    @Test
    void noGrantWhenTheHandoverWroteNothing() {
        Lease alices = granted(acquire(ALICE));
        java.util.List<Lease> granted = new java.util.ArrayList<>();
        successorSays = new SuccessorCheck.Reply.Waiting(YES, granted::add);
        store.interleaveBeforeNextWrite(() -> join(renew.execute(
                new RenewLease.Command(KEY, ALICE, alices.revision(), Optional.empty()))));

        assertInstanceOf(Lost.class, join(handover.execute(command(alices))));

        assertEquals(java.util.List.of(), granted, "a yes whose handover lost its compare-and-set grants nothing");
    }

    private static HandOverLease.Command command(Lease lease) {
        return new HandOverLease.Command(KEY, lease.claimant(), lease.revision(), SUCCESSOR, Optional.empty());
    }
}
