package io.dagnats.leases.bootstrap;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.dagnats.leases.application.AcquireLease;
import io.dagnats.leases.application.ForwardToOwner;
import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.ReleaseLease;
import io.dagnats.leases.application.RenewLease;
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
    ForwardToOwner forward(LeaseStore store, OwnerInbox inbox, MonotonicClock clock) {
        return new ForwardToOwner(store, inbox, clock);
    }

    @Provides
    @Singleton
    AcquireLease acquire(LeaseStore store, Clock clock) {
        return new AcquireLease(store, clock);
    }

    @Provides
    @Singleton
    RenewLease renew(LeaseStore store, Clock clock) {
        return new RenewLease(store, clock);
    }

    @Provides
    @Singleton
    ReleaseLease release(LeaseStore store) {
        return new ReleaseLease(store);
    }
}
