package io.dagnats.leases.application;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.Decision;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseRules;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Renewal;
import java.time.Instant;
import java.util.Optional;

/** Two dagnats instances, each with its own memory, over one store: what the known-leases tests share. */
abstract class KnownLeasesFixture {

    static final LeaseKey KEY = new LeaseKey("k");
    static final HolderId ALICE = new HolderId("alice");
    static final HolderId BOB = new HolderId("bob");
    static final LeaseTtl TTL = LeaseTtl.ofSeconds(15);

    final TestingClock clock = new TestingClock(Instant.parse("2026-10-18T12:00:00Z"));
    final InMemoryLeaseStore store = new InMemoryLeaseStore();

    /** One dagnats instance: its own memory over the shared store. */
    final class Instance {
        final KnownLeases known = new KnownLeases(100);
        final AcquireLease acquire = new AcquireLease(store, known, clock);
        final RenewLease renew = new RenewLease(store, known, clock);
        final ReleaseLease release = new ReleaseLease(store, known, clock);

        Acquisition acquire(HolderId holder) {
            return acquire.execute(new AcquireLease.Command(KEY, holder, TTL)).toCompletableFuture().join();
        }

        Renewal renew(HolderId holder, Lease lease) {
            return renew.execute(new RenewLease.Command(KEY, holder, lease.revision(), Optional.empty()))
                    .toCompletableFuture().join();
        }
    }

    final Instance one = new Instance();
    final Instance two = new Instance();

    static final LeaseStore.Identity FRESH = new LeaseStore.Identity("bucket-1", true);

    LeaseWrite.Put put(HolderId holder) {
        return (LeaseWrite.Put) ((Decision.Apply<?>) LeaseRules.acquire(
                new KeyState.Free(KEY, 0), Claimant.of(holder), TTL, clock.instant())).write();
    }
}
