package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Instant;
import java.util.Optional;

/**
 * dagnats' store as {@link TwoKeepersNeverBelieveAtOnceTest} models it: one record or none, a
 * revision that only grows, and each record's own TTL (an acquire's and a renew's are the writer's,
 * a handover keeps the handed record's, as the holder library sends none), expired by the model's
 * clock. Events of its writes are the test's to deliver.
 */
final class ModelledStore {

    /** Tells the keepers of a write: its kind, its revision, whose it was. */
    interface Events {
        void broadcast(String kind, long sequence, Claimant by);
    }

    private final Events events;
    private final Instant wallAtZero;
    private final long zero;
    private Optional<Claimant> holder = Optional.empty();
    private long revision = 4;
    private long tenure;
    private long expiresAt;
    private LeaseTtl ttl = KeeperHarness.TTL;

    ModelledStore(Events events, long zero, Instant wallAtZero) {
        this.events = events;
        this.zero = zero;
        this.wallAtZero = wallAtZero;
    }

    Optional<Claimant> holder() {
        return holder;
    }

    /** The record's TTL: what a handover keeps. */
    LeaseTtl ttl() {
        return ttl;
    }

    /** At {@code now}: a record past its TTL is gone, and its expiry is an event. */
    void expire(long now) {
        if (holder.isPresent() && now >= expiresAt) {
            holder = Optional.empty();
            events.broadcast("expired", ++revision, KeeperHarness.SELF);
        }
    }

    void write(long now, Claimant by, String kind, boolean newTenure, LeaseTtl written) {
        holder = Optional.of(by);
        revision++;
        tenure = newTenure ? revision : tenure;
        ttl = written;
        expiresAt = now + written.duration().toNanos();
        events.broadcast(kind, revision, by);
    }

    void free(Claimant by) {
        holder = Optional.empty();
        events.broadcast("released", ++revision, by);
    }

    boolean holds(Claimant by, Fence fence) {
        return holder.equals(Optional.of(by)) && revision == fence.revision();
    }

    LeaseView view(long now) {
        Claimant by = holder.orElseThrow();
        return new LeaseView(KeeperHarness.KEY, by.holder(), by.incarnation(), new Fence(revision),
                Optional.of(new Fence(tenure)), wall(now), wall(expiresAt), ttl);
    }

    private Instant wall(long nanos) {
        return wallAtZero.plusNanos(nanos - zero);
    }
}
