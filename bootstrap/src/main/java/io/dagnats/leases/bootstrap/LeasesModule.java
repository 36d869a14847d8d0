package io.dagnats.leases.bootstrap;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.dagnats.leases.application.AcquireLease;
import io.dagnats.leases.application.ForwardToOwner;
import io.dagnats.leases.application.KnownLeases;
import io.dagnats.leases.application.LeaseCensus;
import io.dagnats.leases.application.LeaseListing;
import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.application.ReadLease;
import io.dagnats.leases.application.ReleaseLease;
import io.dagnats.leases.application.RenewLease;
import io.dagnats.leases.application.RevokeLease;
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
    ForwardToOwner forward(LeaseStore store, KnownLeases known, OwnerInbox inbox, MonotonicClock monotonic,
            Clock clock) {
        return new ForwardToOwner(store, known, inbox, monotonic, clock);
    }

    /** Keys remembered for one-write renewals; about 300 bytes each. */
    @Provides
    @Singleton
    KnownLeases known() {
        return new KnownLeases(200_000);
    }

    @Provides
    @Singleton
    AcquireLease acquire(LeaseStore store, KnownLeases known, Clock clock) {
        return new AcquireLease(store, known, clock);
    }

    @Provides
    @Singleton
    ReadLease owner(LeaseStore store, KnownLeases known) {
        return new ReadLease(store, known);
    }

    @Provides
    @Singleton
    RenewLease renew(LeaseStore store, KnownLeases known, Clock clock) {
        return new RenewLease(store, known, clock);
    }

    @Provides
    @Singleton
    ReleaseLease release(LeaseStore store, KnownLeases known, Clock clock) {
        return new ReleaseLease(store, known, clock);
    }

    @Provides
    @Singleton
    RevokeLease revoke(LeaseStore store, KnownLeases known, Clock clock) {
        return new RevokeLease(store, known, clock);
    }

    /** For the lease gauges: built only when metrics are exported. */
    @Provides
    @Singleton
    LeaseCensus census(LeaseListing listing) {
        return new LeaseCensus(listing);
    }
}
