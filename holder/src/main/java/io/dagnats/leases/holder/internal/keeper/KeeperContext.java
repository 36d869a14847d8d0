package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.holder.internal.Jitter;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import java.util.Objects;
import java.util.Optional;

/**
 * What every part of the keeper's rules shares, as a value: the key, this process's claimant, the
 * TTL and the jitter, and the steps more than one phase takes (campaign, prove, wait). The parts of
 * the rules (campaigning, the owner phases, the store-went-back rule) each take it instead of a
 * pointer back to one another, so none of them knows the others it does not call.
 *
 * @param key    the key kept
 * @param self   this process's holder id and incarnation: whose writes are its own
 * @param ttl    the TTL each acquire and renew asks for
 * @param jitter the random part of every delay, given so that the rules draw none themselves
 */
public record KeeperContext(LeaseKey key, Claimant self, LeaseTtl ttl, Jitter jitter) {

    static final long MILLI = 1_000_000L;
    /** A freed key wakes the waiters this far apart at most, so they do not all ask in the same millisecond. */
    static final int FREED_JITTER_MS = 25;
    /** After a lost lease or an unusable answer, ask again within this much. */
    static final int AGAIN_JITTER_MS = 50;

    public KeeperContext {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(self, "self");
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(jitter, "jitter");
    }

    long ttlNanos() {
        return ttl.duration().toNanos();
    }

    KeeperStep acquire(KeeperStep.Builder step) {
        long call = step.id();
        return step.then(new KeeperEffect.SendAcquire(call)).into(new KeeperState.Acquiring(call, false));
    }

    KeeperStep prove(KeeperStep.Builder step, Fence start, Fence presented, EventTime now) {
        long call = step.id();
        return step.then(new KeeperEffect.SendRenew(call, presented))
                .into(new KeeperState.Proving(start, presented, call, now.nanos()));
    }

    KeeperStep waitFor(KeeperStep.Builder step, long delayNanos) {
        long wake = step.id();
        return step.then(new KeeperEffect.Schedule(new KeeperEvent.Wake(wake), delayNanos))
                .into(new KeeperState.Waiting(wake));
    }

    KeeperStep waitAfterExpiry(KeeperStep.Builder step, LeaseView heldByOther, EventTime now) {
        ExpiryFallback.Wait wait = step.memory().fallback().after(heldByOther, now.wall(), now.nanos(), ttlNanos(),
                jitter.millis(ExpiryFallback.JITTER_MS) * MILLI);
        return waitFor(step.learnt(wait.after()), wait.nanos());
    }

    /** After a failed call: soon, but not in a tight loop while dagnats is away. */
    long retryDelay() {
        return Math.min(ttlNanos() / 3, (200 + jitter.millis(300)) * MILLI);
    }

    /** The tenure a grant continues: the view's tenure, or (from a dagnats that does not say) its revision. */
    public static Fence startOf(LeaseView lease) {
        return lease.tenure().orElse(lease.revision());
    }

    /** A release, revoke or expiry: the key is free. */
    static boolean freed(KeeperEvent.Changed changed) {
        return changed.change().map(change -> change.kind().endsLease()).orElse(false);
    }

    /**
     * A change above {@code since} that ends what this process holds: a release, revoke or
     * expiry, or a write naming another claimant (the end before it was missed).
     */
    boolean endsOrTakes(KeeperEvent.Changed changed, Fence since) {
        if (changed.change().isEmpty() || !since.isBelow(new Fence(changed.change().get().sequence()))) {
            return false;
        }
        LeaseChange change = changed.change().get();
        return change.kind().endsLease() || !change.claimant().equals(Optional.of(self));
    }

    KeeperEffect info(String line) {
        return new KeeperEffect.Log(System.Logger.Level.INFO, line);
    }

    KeeperEffect warning(String error) {
        return new KeeperEffect.Log(System.Logger.Level.WARNING, "lease " + key + ": " + error);
    }
}
