package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.Jitter;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The keeping of one key as one pure function: (state, memory, event, now) to the next state
 * and the effects to perform. Campaigning is here; the owner phases are
 * {@link TenancyRules}, closing {@link ClosingRules}. Nothing here reads a clock, draws a random number it was not given,
 * or does I/O.
 *
 * <p>Whose write a lease is, is a comparison: this process's {@link Claimant} (holder id and
 * its own incarnation) against the one the lease or event names.
 */
public final class KeeperRules {

    static final long MILLI = 1_000_000L;
    /** A freed key wakes the waiters this far apart at most, so they do not all ask in the same millisecond. */
    static final int FREED_JITTER_MS = 25;
    /** After a lost lease or an unusable answer, ask again within this much. */
    static final int AGAIN_JITTER_MS = 50;

    /**
     * The time of one event: the monotonic clock deadlines run on, and the wall clock expiries are
     * read on; with the key's floor as the event found it, the highest fence this process ever had
     * confirmed for it ({@link FenceFloors}), which no answer of the store may go back to.
     */
    record Now(long nanos, Instant wall, Optional<Fence> floor) {
        Now {
            Objects.requireNonNull(wall, "wall");
            Objects.requireNonNull(floor, "floor");
        }

        /** A key this process never owned. */
        Now(long nanos, Instant wall) {
            this(nanos, wall, Optional.empty());
        }
    }

    final LeaseKey key;
    final Claimant self;
    final LeaseTtl ttl;
    final long ttlNanos;
    final Jitter jitter;
    private final TenancyRules tenancy;
    private final ClosingRules closings;
    final StoreWentBack wentBack;

    KeeperRules(LeaseKey key, Claimant self, LeaseTtl ttl, Jitter jitter) {
        this.key = Objects.requireNonNull(key, "key");
        this.self = Objects.requireNonNull(self, "self");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        this.ttlNanos = ttl.duration().toNanos();
        this.jitter = Objects.requireNonNull(jitter, "jitter");
        this.tenancy = new TenancyRules(this);
        this.closings = new ClosingRules(self);
        this.wentBack = new StoreWentBack(this);
    }

    KeeperStep next(KeeperState state, KeeperMemory memory, KeeperEvent event, Now now) {
        KeeperStep.Builder step = new KeeperStep.Builder(memory);
        if (event instanceof KeeperEvent.Close close) {
            return closings.close(state, close.release(), step);
        }
        if (state instanceof KeeperState.Idle) {
            return event instanceof KeeperEvent.Start ? acquire(step) : step.into(state);
        }
        if (state instanceof KeeperState.Waiting waiting) {
            return waiting(waiting, event, step);
        }
        if (state instanceof KeeperState.Acquiring acquiring) {
            return acquiring(acquiring, event, step, now);
        }
        if (state instanceof KeeperState.Proving proving) {
            return proving(proving, event, step, now);
        }
        if (state instanceof KeeperState.Closing closing) {
            return closings.closing(closing, event, step);
        }
        if (state instanceof KeeperState.Closed) {
            return step.into(state);
        }
        return tenancy.next(state, event, step, now);
    }

    private KeeperStep waiting(KeeperState.Waiting waiting, KeeperEvent event, KeeperStep.Builder step) {
        if (event instanceof KeeperEvent.Wake wake && wake.wake() == waiting.wake()) {
            return acquire(step);
        }
        if (event instanceof KeeperEvent.Changed changed && freed(changed)) {
            return waitFor(step, jitter.millis(FREED_JITTER_MS) * MILLI);
        }
        return step.into(waiting);
    }

    private KeeperStep acquiring(KeeperState.Acquiring acquiring, KeeperEvent event, KeeperStep.Builder step, Now now) {
        if (event instanceof KeeperEvent.Changed changed) {
            return step.into(freed(changed) ? new KeeperState.Acquiring(acquiring.call(), true) : acquiring);
        }
        if (event instanceof KeeperEvent.CallFailed failed && failed.call() == acquiring.call()) {
            failed.finalError().ifPresent(error -> step.then(warning(error)));
            return waitFor(step, retryDelay());
        }
        if (!(event instanceof KeeperEvent.AcquireAnswered answered) || answered.call() != acquiring.call()) {
            return step.into(acquiring);
        }
        LeaseView lease = answered.answer().lease();
        boolean mine = answered.answer() instanceof Answers.Acquire.Granted && lease.isHeldBy(self);
        if (mine && StoreWentBack.acquireBelow(lease.revision(), now.floor())) {
            return wentBack.wentBack(step, "a grant", lease.revision(), now.floor().orElseThrow(), false);
        }
        if (mine) {
            // Held, but maybe by a write made long ago: prove time left with a write of this very request.
            return prove(step, startOf(lease), lease.revision(), now);
        }
        if (acquiring.freedMeanwhile()) {
            return waitFor(step, jitter.millis(FREED_JITTER_MS) * MILLI);
        }
        return waitAfterExpiry(step, lease, now);
    }

    private KeeperStep proving(KeeperState.Proving proving, KeeperEvent event, KeeperStep.Builder step, Now now) {
        if (event instanceof KeeperEvent.Changed changed && endsOrTakes(changed, proving.presented())) {
            // The grant is over before the renew could confirm it: that renew is lost, or wrote below the end.
            return waitFor(step, jitter.millis(FREED_JITTER_MS) * MILLI);
        }
        if (event instanceof KeeperEvent.CallFailed failed && failed.call() == proving.call()) {
            // Maybe written: an acquire (idempotent within this incarnation) says whether the key is still ours.
            failed.finalError().ifPresent(error -> step.then(warning(error)));
            return waitFor(step, retryDelay());
        }
        if (!(event instanceof KeeperEvent.RenewAnswered answered) || answered.call() != proving.call()) {
            return step.into(proving);
        }
        if (answered.answer() instanceof Answers.Renew.Lost lost) {
            step.then(info("lease " + key + " lost: " + lost.reason()));
            return waitFor(step, jitter.millis(AGAIN_JITTER_MS) * MILLI);
        }
        Fence renewed = ((Answers.Renew.Renewed) answered.answer()).lease().revision();
        Fence floor = StoreWentBack.floor(now, proving.presented());
        if (StoreWentBack.renewBelow(renewed, floor)) {
            return wentBack.wentBack(step, "the renew of a grant", renewed, floor, false);
        }
        Tenure tenure = Tenure.begin(key, self.holder(), proving.start(), proving.sentAt(), ttl)
                .renewed(renewed, proving.sentAt(), ttl);
        if (!tenure.actingAsOwner(now.nanos())) {
            // Answered too late to act on: renew again for a fresh deadline.
            return prove(step, proving.start(), renewed, now);
        }
        return tenancy.own(step.then(new KeeperEffect.BecomeOwner(tenure)), tenure, proving.sentAt(), now);
    }

    /**
     * The step after a rule threw, which is a bug: it must not leave the keeper waiting on a call
     * already answered, or with nothing pending. Ownership ends (it cannot be vouched for), and the
     * keeper campaigns again after the retry delay; a closing keeper finishes, leaving the key to the TTL.
     */
    KeeperStep failSafe(KeeperState state, KeeperMemory memory) {
        KeeperStep.Builder step = new KeeperStep.Builder(memory);
        if (state instanceof KeeperState.Closing || state instanceof KeeperState.Closed) {
            return step.then(new KeeperEffect.Finish()).into(new KeeperState.Closed());
        }
        if (state.tenure().isPresent()) {
            step.then(new KeeperEffect.StopOwning(OwnershipListener.StopReason.LOST));
        }
        return waitFor(step, retryDelay());
    }

    // ---- shared by the owner phases ----

    KeeperStep acquire(KeeperStep.Builder step) {
        long call = step.id();
        return step.then(new KeeperEffect.SendAcquire(call)).into(new KeeperState.Acquiring(call, false));
    }

    KeeperStep prove(KeeperStep.Builder step, Fence start, Fence presented, Now now) {
        long call = step.id();
        return step.then(new KeeperEffect.SendRenew(call, presented))
                .into(new KeeperState.Proving(start, presented, call, now.nanos()));
    }

    KeeperStep waitFor(KeeperStep.Builder step, long delayNanos) {
        long wake = step.id();
        return step.then(new KeeperEffect.Schedule(new KeeperEvent.Wake(wake), delayNanos))
                .into(new KeeperState.Waiting(wake));
    }

    KeeperStep waitAfterExpiry(KeeperStep.Builder step, LeaseView heldByOther, Now now) {
        ExpiryFallback.Wait wait = step.memory().fallback().after(heldByOther, now.wall(), now.nanos(), ttlNanos,
                jitter.millis(ExpiryFallback.JITTER_MS) * MILLI);
        return waitFor(step.learnt(wait.after()), wait.nanos());
    }

    /** After a failed call: soon, but not in a tight loop while dagnats is away. */
    long retryDelay() {
        return Math.min(ttlNanos / 3, (200 + jitter.millis(300)) * MILLI);
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
