package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.domain.Lease;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Routed from a leader read: the owner is asked under its revision, a reject is retried on a new owner, at most three attempts. */
class ForwardToOwnerFromALeaderReadTest extends ForwardToOwnerFixture {

    @Test
    void aFreeKeyHasNoOwnerAndNobodyIsAsked() {
        assertInstanceOf(ForwardToOwner.Outcome.NoOwner.class, forward());
        assertEquals(List.of(), inbox.asked);
    }

    @Test
    void theOwnerIsAskedUnderItsRevisionAndItsReplyComesBack() {
        Lease owner = grant("alice");
        inbox.script.add(() -> new OwnerInbox.Delivery.Replied(new byte[] {9}));

        ForwardToOwner.Outcome.Delivered delivered = assertInstanceOf(ForwardToOwner.Outcome.Delivered.class, forward());

        assertEquals(owner, delivered.owner());
        assertArrayEquals(new byte[] {9}, delivered.reply());
        assertEquals(List.of("alice@" + owner.revision()), inbox.asked);
    }

    @Test
    void aTimeoutIsNeverRetried() {
        grant("alice");
        inbox.script.add(OwnerInbox.Delivery.TimedOut::new);

        assertInstanceOf(ForwardToOwner.Outcome.OwnerTimeout.class, forward());
        assertEquals(1, inbox.asked.size());
    }

    @Test
    void noRespondersOnAnUnchangedLeaseIsNotRetried() {
        Lease owner = grant("alice");
        inbox.script.add(OwnerInbox.Delivery.NoResponders::new);

        ForwardToOwner.Outcome outcome = forward();

        assertEquals(owner, assertInstanceOf(ForwardToOwner.Outcome.OwnerUnavailable.class, outcome).lastTried());
        assertEquals(1, inbox.asked.size());
    }

    @Test
    void aRejectDuringAHandoverIsRetriedOnTheNewOwner() {
        Lease alices = grant("alice");
        inbox.script.add(() -> {
            release.execute(new ReleaseLease.Command(KEY, alices.holder(), alices.revision())).toCompletableFuture().join();
            grant("bob");
            return new OwnerInbox.Delivery.Rejected();
        });
        inbox.script.add(() -> new OwnerInbox.Delivery.Replied(new byte[0]));

        ForwardToOwner.Outcome.Delivered delivered = assertInstanceOf(ForwardToOwner.Outcome.Delivered.class, forward());

        assertEquals("bob", delivered.owner().holder().value());
        assertEquals(2, inbox.asked.size());
    }

    @Test
    void theOwnerLeavingAfterARejectNamesTheOwnerLastTried() {
        Lease alices = grant("alice");
        inbox.script.add(() -> {
            release.execute(new ReleaseLease.Command(KEY, alices.holder(), alices.revision())).toCompletableFuture().join();
            return new OwnerInbox.Delivery.Rejected();
        });

        ForwardToOwner.Outcome outcome = forward();

        assertEquals(alices, assertInstanceOf(ForwardToOwner.Outcome.OwnerRejected.class, outcome).lastTried());
    }

    @Test
    void atMostThreeAttemptsEvenWhenTheOwnerKeepsChanging() {
        Lease[] current = {grant("h0")};
        for (int i = 1; i <= 5; i++) {
            String next = "h" + i;
            inbox.script.add(() -> {
                release.execute(new ReleaseLease.Command(KEY, current[0].holder(), current[0].revision()))
                        .toCompletableFuture().join();
                current[0] = grant(next);
                return new OwnerInbox.Delivery.NoResponders();
            });
        }

        ForwardToOwner.Outcome outcome = forward();

        assertInstanceOf(ForwardToOwner.Outcome.OwnerUnavailable.class, outcome);
        assertEquals(ForwardToOwner.MAX_ATTEMPTS, inbox.asked.size());
    }
}
