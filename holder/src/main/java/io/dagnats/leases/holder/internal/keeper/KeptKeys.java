package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.HealthWatch;
import io.dagnats.leases.holder.internal.HolderTelemetry;
import io.dagnats.leases.holder.internal.Jitter;
import io.dagnats.leases.holder.internal.KeyChanges;
import io.dagnats.leases.holder.internal.LeaseCalls;
import io.dagnats.leases.holder.internal.Ownership;
import io.dagnats.leases.holder.internal.Scheduler;
import io.dagnats.leases.holder.internal.candidacy.CandidateDesk;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * The keys one {@link LeaseHolder} keeps: a {@link KeptLease} each, made with this
 * holder's claimant (holder id and incarnation), its scheduler thread and listener thread,
 * following the key's change events from before it campaigns until it closes.
 */
public final class KeptKeys {

    private final Claimant self;
    private final LeaseCalls client;
    private final MonotonicClock clock;
    private final Scheduler scheduler;
    private final Executor listeners;
    private final KeyChanges changes;
    private final HolderTelemetry telemetry;
    private final HealthWatch health;
    /** Answers for the keys kept with candidacy on, and asks candidates for the owners (ADR-042). */
    private final CandidateDesk desk;
    private final Map<LeaseKey, KeptLeaseHandle> kept = new ConcurrentHashMap<>();
    /** The highest fence this holder confirmed per key, for its life: kept across a drop and a keep again. */
    private final FenceFloors floors = new FenceFloors();

    public KeptKeys(Claimant self, LeaseCalls client, MonotonicClock clock, Scheduler scheduler, Executor listeners,
            KeyChanges changes, HolderTelemetry telemetry, HealthWatch health, CandidateDesk desk) {
        this.desk = desk;
        this.self = self;
        this.client = client;
        this.clock = clock;
        this.scheduler = scheduler;
        this.listeners = listeners;
        this.changes = changes;
        this.telemetry = telemetry;
        this.health = health;
    }

    /** @throws IllegalStateException when {@code key} is kept already */
    public KeptLeaseHandle keep(String key, Duration ttl, OwnershipListener listener) {
        return keep(key, ttl, KeepOptions.defaults(), listener);
    }

    /** As {@link #keep(String, Duration, OwnershipListener)}, with candidacy, a strategy and its brakes. */
    public KeptLeaseHandle keep(String key, Duration ttl, KeepOptions options, OwnershipListener listener) {
        LeaseKey leaseKey = new LeaseKey(key);
        LeaseTtl leaseTtl = new LeaseTtl(ttl.toMillis());
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(options, "options");
        KeptLeaseHandle lease = kept.compute(leaseKey, (ignored, existing) -> {
            if (existing != null) {
                throw new IllegalStateException(key + " is already kept by this holder");
            }
            return new KeptLeaseHandle(new LeaseKeeper(new KeeperRules(leaseKey, self, leaseTtl, Jitter.random(), options),
                    client, desk, clock, Clock.systemUTC(), scheduler, listeners, listener, telemetry, floors),
                    () -> forget(leaseKey));
        });
        LeaseKeeper keeper = lease.keeper();
        health.kept(leaseKey, ttl);
        changes.follow(leaseKey, change -> {
            try {
                change.ifPresent(desk::heard); // a handover's event may grant a yes (ADR-047): before the keeper hears it
            } finally {
                keeper.keyChanged(change); // whatever the desk made of it
            }
        });
        options.candidacy().ifPresent(priority -> desk.stand(leaseKey, priority, new CandidateDesk.Seat() {
            @Override
            public boolean waiting() {
                return keeper.sight().waiting();
            }

            @Override
            public boolean owner() {
                return keeper.ownership().isOwner();
            }

            @Override
            public void expecting(boolean granting) {
                keeper.submit(new KeeperEvent.Expecting(granting));
            }

            @Override
            public void granted(LeaseView lease, long saidAt) {
                keeper.submit(new KeeperEvent.Granted(lease, saidAt));
            }
        }));
        keeper.start();
        return lease;
    }

    public Optional<KeptLeaseHandle> get(LeaseKey key) {
        return Optional.ofNullable(kept.get(key));
    }

    /** The highest fence this holder confirmed per key: what its followings check owners against too. */
    public FenceFloors floors() {
        return floors;
    }

    /** The ownership of {@code key}, if it is kept. */
    public Optional<Ownership> ownership(LeaseKey key) {
        return get(key).map(lease -> lease.keeper().ownership());
    }

    /** Every kept key, and whether this process acts as its owner right now: what the owner gauge reads. */
    public Map<LeaseKey, Boolean> owners() {
        Map<LeaseKey, Boolean> owners = new HashMap<>();
        kept.forEach((key, lease) -> owners.put(key, lease.isOwner()));
        return owners;
    }

    /** Closes every kept lease, releasing what is held. */
    public void closeAll() {
        for (KeptLeaseHandle lease : List.copyOf(kept.values())) {
            lease.close();
        }
        kept.clear();
    }

    /** A kept lease closed: no more change events for it, and the key may be kept again. */
    private void forget(LeaseKey key) {
        desk.withdraw(key);
        changes.unfollow(key);
        kept.remove(key);
        health.dropped(key);
    }
}
