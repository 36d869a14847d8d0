package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ForwardToOwnerTest {

    private static final LeaseKey KEY = new LeaseKey("shard-1");
    private static final LeaseTtl TTL = LeaseTtl.ofSeconds(15);
    private static final byte[] PAYLOAD = {1, 2, 3};

    private final TestingClock clock = new TestingClock(Instant.parse("2026-10-18T12:00:00Z"));
    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final KnownLeases known = new KnownLeases(1_000);
    private final AcquireLease acquire = new AcquireLease(store, known, clock);
    private final ReleaseLease release = new ReleaseLease(store, known, clock);

    /** Answers each delivery from a script, and records who was asked under which fence. */
    private final class ScriptedInbox implements OwnerInbox {
        final Deque<Supplier<Delivery>> script = new ArrayDeque<>();
        final List<String> asked = new ArrayList<>();

        @Override
        public CompletableFuture<Delivery> deliver(LeaseKey key, Claimant owner, Fence fence, byte[] payload, Duration timeout) {
            asked.add(owner + "@" + fence);
            return CompletableFuture.completedFuture(script.removeFirst().get());
        }
    }

    private final ScriptedInbox inbox = new ScriptedInbox();
    /** Routes every attempt from a leader read, as without a memory. */
    private final ForwardToOwner forward = new ForwardToOwner(store, KnownLeases.none(), inbox, System::nanoTime, clock);
    /** Routes the first attempt from what this instance's own acquires and reads left in {@code known}. */
    private final ForwardToOwner remembering = new ForwardToOwner(store, known, inbox, System::nanoTime, clock);

    /** Another dagnats instance on the same store: nothing it does reaches {@code known}. */
    private final KnownLeases elsewhere = new KnownLeases(1_000);
    private final AcquireLease acquireElsewhere = new AcquireLease(store, elsewhere, clock);
    private final ReleaseLease releaseElsewhere = new ReleaseLease(store, elsewhere, clock);

    private Lease grant(String holder) {
        return assertInstanceOf(Acquisition.Granted.class,
                acquire.execute(new AcquireLease.Command(KEY, new HolderId(holder), TTL)).toCompletableFuture().join())
                .lease();
    }

    private ForwardToOwner.Outcome forward() {
        return forward(forward);
    }

    private static ForwardToOwner.Outcome forward(ForwardToOwner through) {
        return through.execute(new ForwardToOwner.Command(KEY, PAYLOAD, Duration.ofSeconds(5))).toCompletableFuture().join();
    }

    /** Through the other instance: {@code lease} is released, and {@code next} (if any) acquires the key. */
    private Lease handOverElsewhere(Lease lease, String next) {
        releaseElsewhere.execute(new ReleaseLease.Command(KEY, lease.holder(), lease.revision())).toCompletableFuture().join();
        if (next == null) {
            return null;
        }
        return assertInstanceOf(Acquisition.Granted.class, acquireElsewhere.execute(
                new AcquireLease.Command(KEY, new HolderId(next), TTL)).toCompletableFuture().join()).lease();
    }

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

    // ---- routed from memory (ADR-032) ----

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
