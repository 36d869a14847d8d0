package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseWrite;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Routed from memory (ADR-032): the first attempt may skip the read; a stale route falls back to the leader. */
class ForwardToOwnerFromMemoryTest extends ForwardToOwnerFixture {

    @Test
    void aRememberedOwnerIsAskedAtOnceWithoutARead() {
        Lease owner = grant("alice");
        inbox.script.add(() -> new OwnerInbox.Delivery.Replied(new byte[] {9}));

        int readsBefore = store.reads();
        ForwardToOwner.Outcome.Delivered delivered =
                assertInstanceOf(ForwardToOwner.Outcome.Delivered.class, forward(remembering));

        assertEquals(owner, delivered.owner());
        assertEquals(List.of("alice@" + owner.revision()), inbox.asked);
        assertEquals(0, store.reads() - readsBefore);
    }

    @Test
    void aRememberedOwnerThatLostTheKeyRejectsAndTheLeaderNamesTheNewOwner() {
        Lease alices = grant("alice");
        Lease bobs = handOverElsewhere(alices, "bob");
        inbox.script.add(OwnerInbox.Delivery.Rejected::new);
        inbox.script.add(() -> new OwnerInbox.Delivery.Replied(new byte[] {7}));

        int readsBefore = store.reads();
        ForwardToOwner.Outcome.Delivered delivered =
                assertInstanceOf(ForwardToOwner.Outcome.Delivered.class, forward(remembering));

        assertEquals(bobs, delivered.owner());
        assertEquals(List.of("alice@" + alices.revision(), "bob@" + bobs.revision()), inbox.asked);
        assertEquals(1, store.reads() - readsBefore);
    }

    @Test
    void aRememberedOwnerNoLongerListeningFallsBackToTheLeader() {
        Lease alices = grant("alice");
        Lease bobs = handOverElsewhere(alices, "bob");
        inbox.script.add(OwnerInbox.Delivery.NoResponders::new);
        inbox.script.add(() -> new OwnerInbox.Delivery.Replied(new byte[0]));

        assertEquals(bobs, assertInstanceOf(ForwardToOwner.Outcome.Delivered.class, forward(remembering)).owner());
        assertEquals(List.of("alice@" + alices.revision(), "bob@" + bobs.revision()), inbox.asked);
    }

    @Test
    void aRememberedOwnerThatTookTheKeyAgainIsAskedAgainUnderItsNewTenure() {
        Lease first = grant("alice");
        Lease again = handOverElsewhere(first, "alice");
        inbox.script.add(OwnerInbox.Delivery.Rejected::new); // the old fence is below the new tenure
        inbox.script.add(() -> new OwnerInbox.Delivery.Replied(new byte[0]));

        ForwardToOwner.Outcome.Delivered delivered =
                assertInstanceOf(ForwardToOwner.Outcome.Delivered.class, forward(remembering));

        assertEquals(again, delivered.owner());
        assertEquals(List.of("alice@" + first.revision(), "alice@" + again.revision()), inbox.asked);
    }

    @Test
    void aRejectFromTheRememberedOwnerOfAFreedKeyIsNoOwner() {
        handOverElsewhere(grant("alice"), null);
        inbox.script.add(OwnerInbox.Delivery.Rejected::new);

        assertInstanceOf(ForwardToOwner.Outcome.NoOwner.class, forward(remembering));
        assertEquals(1, inbox.asked.size());
    }

    @Test
    void aRejectTheLeaderConfirmsIsTheAnswer() {
        Lease alices = grant("alice");
        inbox.script.add(OwnerInbox.Delivery.Rejected::new);

        int readsBefore = store.reads();
        assertEquals(alices, assertInstanceOf(ForwardToOwner.Outcome.OwnerRejected.class, forward(remembering)).lastTried());
        assertEquals(1, inbox.asked.size());
        assertEquals(1, store.reads() - readsBefore);
    }

    @Test
    void aTimeoutOfTheRememberedOwnerIsNeverRetried() {
        Lease alices = grant("alice");
        handOverElsewhere(alices, "bob");
        inbox.script.add(OwnerInbox.Delivery.TimedOut::new);

        int readsBefore = store.reads();
        assertEquals(alices, assertInstanceOf(ForwardToOwner.Outcome.OwnerTimeout.class, forward(remembering)).lastTried());
        assertEquals(1, inbox.asked.size());
        assertEquals(0, store.reads() - readsBefore);
    }

    @Test
    void theRememberedAttemptIsOneOfTheThree() {
        Lease[] current = {grant("h0")};
        for (int i = 1; i <= 3; i++) {
            String next = "h" + i;
            inbox.script.add(() -> {
                current[0] = handOverElsewhere(current[0], next);
                return new OwnerInbox.Delivery.NoResponders();
            });
        }

        ForwardToOwner.Outcome outcome = forward(remembering);

        assertEquals("h2", assertInstanceOf(ForwardToOwner.Outcome.OwnerUnavailable.class, outcome).lastTried().holder().value());
        assertEquals(ForwardToOwner.MAX_ATTEMPTS, inbox.asked.size());
    }

    @Test
    void theLeaderReadAfterAStaleRouteIsRememberedForTheNextForward() {
        Lease alices = grant("alice");
        Lease bobs = handOverElsewhere(alices, "bob");
        inbox.script.add(OwnerInbox.Delivery.Rejected::new);
        inbox.script.add(() -> new OwnerInbox.Delivery.Replied(new byte[0]));
        inbox.script.add(() -> new OwnerInbox.Delivery.Replied(new byte[0]));

        int readsBefore = store.reads();
        forward(remembering);
        forward(remembering);

        assertEquals(List.of("alice@" + alices.revision(), "bob@" + bobs.revision(), "bob@" + bobs.revision()), inbox.asked);
        assertEquals(1, store.reads() - readsBefore);
    }

    @Test
    void aRememberedLeasePastItsExpiryIsReadFirst() {
        Lease alices = grant("alice");
        clock.advance(TTL.duration());
        inbox.script.add(() -> new OwnerInbox.Delivery.Replied(new byte[0]));

        int readsBefore = store.reads();
        forward(remembering);

        assertEquals(1, store.reads() - readsBefore);
        assertEquals(List.of("alice@" + alices.revision()), inbox.asked);
    }

    @Test
    void nothingIsRoutedFromMemoryOfAStoreThatWasReplaced() {
        grant("alice");
        store.recreate(1_000_000, true, true);
        Lease bobs = assertInstanceOf(Acquisition.Granted.class, acquireElsewhere.execute(
                new AcquireLease.Command(KEY, new HolderId("bob"), TTL)).toCompletableFuture().join()).lease();
        inbox.script.add(() -> new OwnerInbox.Delivery.Replied(new byte[0]));

        forward(remembering);

        assertEquals(List.of("bob@" + bobs.revision()), inbox.asked);
    }

    @Test
    void aFallbackReadShowingTheKeyGoneBackIsAContradictionAndNothingIsDelivered() {
        Lease first = grant("h0");
        release.execute(new ReleaseLease.Command(KEY, first.holder(), first.revision())).toCompletableFuture().join();
        Lease later = grant("h0"); // remembered at revision 3
        store.recreate(1, false, true); // replaced, not noticed yet: the identity looks the same
        store.writeUnseen(new LeaseWrite.Put(KEY, 0, LeaseEvent.ACQUIRED, Claimant.of(new HolderId("bob")), clock.instant(),
                clock.instant(), TTL, Optional.empty()));
        inbox.script.add(OwnerInbox.Delivery.Rejected::new);

        CompletionException failure = assertThrows(CompletionException.class, () -> forward(remembering));

        assertEquals(ErrorKind.UNAVAILABLE, assertInstanceOf(LeaseFailure.class, failure.getCause()).kind());
        assertEquals(1, store.contradictions().size());
        assertEquals(List.of("h0@" + later.revision()), inbox.asked);
    }
}
