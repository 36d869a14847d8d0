package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Claimant;
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

/** A store, this instance's memory, another instance, and a scripted owner inbox: what the forward tests share. */
abstract class ForwardToOwnerFixture {

    static final LeaseKey KEY = new LeaseKey("shard-1");
    static final LeaseTtl TTL = LeaseTtl.ofSeconds(15);
    static final byte[] PAYLOAD = {1, 2, 3};

    final TestingClock clock = new TestingClock(Instant.parse("2026-10-18T12:00:00Z"));
    final InMemoryLeaseStore store = new InMemoryLeaseStore();
    final KnownLeases known = new KnownLeases(1_000);
    final AcquireLease acquire = new AcquireLease(store, known, clock);
    final ReleaseLease release = new ReleaseLease(store, known, clock);

    /** Answers each delivery from a script, and records who was asked under which fence. */
    final class ScriptedInbox implements OwnerInbox {
        final Deque<Supplier<Delivery>> script = new ArrayDeque<>();
        final List<String> asked = new ArrayList<>();

        @Override
        public CompletableFuture<Delivery> deliver(LeaseKey key, Claimant owner, Fence fence, byte[] payload, Duration timeout) {
            asked.add(owner + "@" + fence);
            return CompletableFuture.completedFuture(script.removeFirst().get());
        }
    }

    final ScriptedInbox inbox = new ScriptedInbox();
    /** Routes every attempt from a leader read, as without a memory. */
    final ForwardToOwner forward = new ForwardToOwner(store, KnownLeases.none(), inbox, System::nanoTime, clock);
    /** Routes the first attempt from what this instance's own acquires and reads left in {@code known}. */
    final ForwardToOwner remembering = new ForwardToOwner(store, known, inbox, System::nanoTime, clock);

    /** Another dagnats instance on the same store: nothing it does reaches {@code known}. */
    final KnownLeases elsewhere = new KnownLeases(1_000);
    final AcquireLease acquireElsewhere = new AcquireLease(store, elsewhere, clock);
    final ReleaseLease releaseElsewhere = new ReleaseLease(store, elsewhere, clock);

    Lease grant(String holder) {
        return assertInstanceOf(Acquisition.Granted.class,
                acquire.execute(new AcquireLease.Command(KEY, new HolderId(holder), TTL)).toCompletableFuture().join())
                .lease();
    }

    ForwardToOwner.Outcome forward() {
        return forward(forward);
    }

    static ForwardToOwner.Outcome forward(ForwardToOwner through) {
        return through.execute(new ForwardToOwner.Command(KEY, PAYLOAD, Duration.ofSeconds(5))).toCompletableFuture().join();
    }

    /** Through the other instance: {@code lease} is released, and {@code next} (if any) acquires the key. */
    Lease handOverElsewhere(Lease lease, String next) {
        releaseElsewhere.execute(new ReleaseLease.Command(KEY, lease.holder(), lease.revision())).toCompletableFuture().join();
        if (next == null) {
            return null;
        }
        return assertInstanceOf(Acquisition.Granted.class, acquireElsewhere.execute(
                new AcquireLease.Command(KEY, new HolderId(next), TTL)).toCompletableFuture().join()).lease();
    }
}
