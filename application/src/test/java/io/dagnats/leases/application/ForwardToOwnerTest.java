package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
    private final ReleaseLease release = new ReleaseLease(store, known);

    /** Answers each delivery from a script, and records who was asked under which fence. */
    private final class ScriptedInbox implements OwnerInbox {
        final Deque<Supplier<Delivery>> script = new ArrayDeque<>();
        final List<String> asked = new ArrayList<>();

        @Override
        public CompletableFuture<Delivery> deliver(LeaseKey key, HolderId owner, Fence fence, byte[] payload, Duration timeout) {
            asked.add(owner + "@" + fence);
            return CompletableFuture.completedFuture(script.removeFirst().get());
        }
    }

    private final ScriptedInbox inbox = new ScriptedInbox();
    private final ForwardToOwner forward = new ForwardToOwner(store, inbox, System::nanoTime);

    private Lease grant(String holder) {
        return assertInstanceOf(Acquisition.Granted.class,
                acquire.execute(new AcquireLease.Command(KEY, new HolderId(holder), TTL)).toCompletableFuture().join())
                .lease();
    }

    private ForwardToOwner.Outcome forward() {
        return forward.execute(new ForwardToOwner.Command(KEY, PAYLOAD, Duration.ofSeconds(5))).toCompletableFuture().join();
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
}
