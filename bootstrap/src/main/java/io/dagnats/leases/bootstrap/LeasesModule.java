package io.dagnats.leases.bootstrap;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.dagnats.leases.application.AcquireLease;
import io.dagnats.leases.application.AttachedKeys;
import io.dagnats.leases.application.ForwardToOwner;
import io.dagnats.leases.application.HandOverLease;
import io.dagnats.leases.application.KnownLeases;
import io.dagnats.leases.application.LeaseCensus;
import io.dagnats.leases.application.LeaseListing;
import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.LeaseWriter;
import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.application.ReadLease;
import io.dagnats.leases.application.ReleaseLease;
import io.dagnats.leases.application.RenewLease;
import io.dagnats.leases.application.RevokeLease;
import io.dagnats.leases.application.SuccessorCheck;
import io.dagnats.leases.domain.MonotonicClock;
import java.time.Clock;

/** The use cases, built over whatever store and clock the other modules bind. */
final class LeasesModule extends AbstractModule {

    @Provides
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Provides
    @Singleton
    MonotonicClock monotonicClock() {
        return MonotonicClock.SYSTEM;
    }

    @Provides
    @Singleton
    ForwardToOwner forward(LeaseWriter writer, OwnerInbox inbox, MonotonicClock monotonic) {
        return new ForwardToOwner(writer, inbox, monotonic);
    }

    /** The one object that reads, decides and writes a key, for every use case (ADR-038). */
    @Provides
    @Singleton
    LeaseWriter writer(LeaseStore store, KnownLeases known, Clock clock) {
        return new LeaseWriter(store, known, clock);
    }

    /** Keys remembered for one-write renewals; about 300 bytes each. */
    @Provides
    @Singleton
    KnownLeases known() {
        return new KnownLeases(200_000);
    }

    @Provides
    @Singleton
    AttachedKeys attached(LeaseWriter writer) {
        return new AttachedKeys(writer);
    }

    @Provides
    @Singleton
    AcquireLease acquire(LeaseWriter writer) {
        return new AcquireLease(writer);
    }

    @Provides
    @Singleton
    ReadLease owner(LeaseWriter writer) {
        return new ReadLease(writer);
    }

    @Provides
    @Singleton
    RenewLease renew(LeaseWriter writer) {
        return new RenewLease(writer);
    }

    @Provides
    @Singleton
    ReleaseLease release(LeaseWriter writer) {
        return new ReleaseLease(writer);
    }

    @Provides
    @Singleton
    RevokeLease revoke(LeaseWriter writer) {
        return new RevokeLease(writer);
    }

    /** A handover writes through the same writer; its successor is asked through the port (ADR-042). */
    @Provides
    @Singleton
    HandOverLease handover(LeaseWriter writer, SuccessorCheck successors) {
        return new HandOverLease(writer, successors);
    }

    /** For the lease gauges: built only when metrics are exported. */
    @Provides
    @Singleton
    LeaseCensus census(LeaseListing listing) {
        return new LeaseCensus(listing);
    }
}
