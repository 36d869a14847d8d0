package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.RevokeReason;
import java.time.Instant;
import java.util.concurrent.CompletionStage;

/** One instance's use cases over an in-memory store and a testing clock: what the lease use-case tests share. */
abstract class LeaseUseCasesFixture {

    static final LeaseKey KEY = new LeaseKey("notify-leader");
    static final HolderId ALICE = new HolderId("alice");
    static final HolderId BOB = new HolderId("bob");
    static final LeaseTtl TTL = LeaseTtl.ofSeconds(15);

    final TestingClock clock = new TestingClock(Instant.parse("2026-10-18T12:00:00Z"));
    final InMemoryLeaseStore store = new InMemoryLeaseStore();
    final KnownLeases known = new KnownLeases(1_000);
    final AcquireLease acquire = new AcquireLease(store, known, clock);
    final RenewLease renew = new RenewLease(store, known, clock);
    final ReleaseLease release = new ReleaseLease(store, known, clock);
    final RevokeLease revoke = new RevokeLease(store, known, clock);
    static final RevokeReason WHY = new RevokeReason("stuck after a GC pause");

    Acquisition acquire(HolderId holder) {
        return join(acquire.execute(new AcquireLease.Command(KEY, holder, TTL)));
    }

    static Lease granted(Acquisition acquisition) {
        return assertInstanceOf(Acquisition.Granted.class, acquisition).lease();
    }

    static <T> T join(CompletionStage<T> stage) {
        return stage.toCompletableFuture().join();
    }
}
