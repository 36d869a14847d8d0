package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.internal.Jitter;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The keeping of one key as one pure function: (state, memory, event, now) to the next state
 * and the effects to perform. Campaigning is here; the owner phases are
 * {@link TenancyRules}, closing {@link ClosingRules}, handing over {@link HandoverRules}. Nothing here reads a clock, draws a random number it was not given,
 * or does I/O.
 *
 * <p>Whose write a lease is, is a comparison: this process's {@link Claimant} (holder id and
 * its own incarnation) against the one the lease or event names.
 */
public final class KeeperRules {

    final LeaseKey key;
    final Claimant self;
    final LeaseTtl ttl;
    /** The key, claimant, TTL and jitter, and the steps every phase takes: shared by value, not by a back-pointer. */
    private final KeeperContext context;
    private final TenancyRules tenancy;
    private final ClosingRules closings;
    private final StoreWentBack wentBack;
    private final HandoverRules handovers;

    public KeeperRules(LeaseKey key, Claimant self, LeaseTtl ttl, Jitter jitter) {
        this(key, self, ttl, jitter, KeepOptions.defaults());
    }

    public KeeperRules(LeaseKey key, Claimant self, LeaseTtl ttl, Jitter jitter, KeepOptions options) {
        this.context = new KeeperContext(key, self, ttl, jitter);
        this.key = key;
        this.self = self;
        this.ttl = ttl;
        this.wentBack = new StoreWentBack(context);
        this.handovers = new HandoverRules(context, options);
        this.tenancy = new TenancyRules(context, wentBack, handovers);
        this.closings = new ClosingRules(key, self);
    }

    public KeeperStep next(KeeperState state, KeeperMemory memory, KeeperEvent event, EventTime now) {
        KeeperStep.Builder step = new KeeperStep.Builder(memory);
        if (state instanceof KeeperState.Handover handover) {
            return handovers.handover(handover, event, step, now);
        }
        if (state instanceof KeeperState.Choosing choosing) {
            return handovers.choosing(choosing, event, step, now);
        }
        if (event instanceof KeeperEvent.Close close) {
            return close.release() && state instanceof KeeperState.Owning owning
                    ? handovers.close(owning, step) : closings.close(state, close.release(), step);
        }
        if (event instanceof KeeperEvent.Granted granted) {
            return granted(state, granted, step, now);
        }
        if (state instanceof KeeperState.Waiting || state instanceof KeeperState.Acquiring) {
            Optional<KeeperStep> toMe = handovers.successor(state, event, step, now);
            if (toMe.isPresent()) {
                return toMe.get();
            }
        }
        if (state instanceof KeeperState.Idle) {
            return event instanceof KeeperEvent.Start ? context.acquire(step) : step.into(state);
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
        if (state instanceof KeeperState.Ending ending) {
            return closings.ending(ending, event, step);
        }
        return tenancy.next((KeeperState.Owner) state, event, step, now);
    }

    private KeeperStep waiting(KeeperState.Waiting waiting, KeeperEvent event, KeeperStep.Builder step) {
        if (event instanceof KeeperEvent.Wake wake && wake.wake() == waiting.wake()) {
            return context.acquire(step);
        }
        if (event instanceof KeeperEvent.Changed changed && KeeperContext.freed(changed)) {
            return context.waitFor(step, context.jitter().millis(KeeperContext.FREED_JITTER_MS) * KeeperContext.MILLI);
        }
        return step.into(waiting);
    }

    private KeeperStep acquiring(KeeperState.Acquiring acquiring, KeeperEvent event, KeeperStep.Builder step, EventTime now) {
        if (event instanceof KeeperEvent.Changed changed) {
            return step.into(KeeperContext.freed(changed) ? new KeeperState.Acquiring(acquiring.call(), true) : acquiring);
        }
        if (event instanceof KeeperEvent.CallFailed failed && failed.call() == acquiring.call()) {
            failed.finalError().ifPresent(error -> step.then(context.warning(error)));
            return context.waitFor(step, context.retryDelay());
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
            return context.prove(step, KeeperContext.startOf(lease), lease.revision(), now);
        }
        if (acquiring.freedMeanwhile()) {
            return context.waitFor(step, context.jitter().millis(KeeperContext.FREED_JITTER_MS) * KeeperContext.MILLI);
        }
        return context.waitAfterExpiry(step, lease, now);
    }

    private KeeperStep proving(KeeperState.Proving proving, KeeperEvent event, KeeperStep.Builder step, EventTime now) {
        if (event instanceof KeeperEvent.Changed changed && context.endsOrTakes(changed, proving.presented())) {
            // The grant is over before the renew could confirm it: that renew is lost, or wrote below the end.
            return context.waitFor(step, context.jitter().millis(KeeperContext.FREED_JITTER_MS) * KeeperContext.MILLI);
        }
        if (event instanceof KeeperEvent.CallFailed failed && failed.call() == proving.call()) {
            // Maybe written: an acquire (idempotent within this incarnation) says whether the key is still ours.
            failed.finalError().ifPresent(error -> step.then(context.warning(error)));
            return context.waitFor(step, context.retryDelay());
        }
        if (!(event instanceof KeeperEvent.RenewAnswered answered) || answered.call() != proving.call()) {
            return step.into(proving);
        }
        if (answered.answer() instanceof Answers.Renew.Lost lost) {
            step.then(context.info("lease " + key + " lost: " + lost.reason()));
            return context.waitFor(step, context.jitter().millis(KeeperContext.AGAIN_JITTER_MS) * KeeperContext.MILLI);
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
            return context.prove(step, proving.start(), renewed, now);
        }
        return tenancy.own(step.then(new KeeperEffect.BecomeOwner(tenure)), tenure, proving.sentAt(), now);
    }

    /**
     * dagnats' grant of this process's yes to a handover check (ADR-046): the handover's own write,
     * a new tenure naming this very process, made after the yes was sent. That is a write this
     * process caused (ADR-027), so it owns at once, its deadline counted from the yes, with the
     * shorter of the written TTL and its own. Taken only while not owner and not already confirming
     * another grant: waiting, acquiring, or proving that very write (its renew, still in flight, then
     * renews the tenure). Dropped otherwise, and when it is below the key's floor or already too late
     * to act on: the handed-over event and a renew of its own still make it owner, as before.
     */
    private KeeperStep granted(KeeperState state, KeeperEvent.Granted granted, KeeperStep.Builder step, EventTime now) {
        LeaseView lease = granted.lease();
        boolean takes = state instanceof KeeperState.Waiting || state instanceof KeeperState.Acquiring
                || state instanceof KeeperState.Proving proving && proving.presented().equals(lease.revision())
                        && proving.start().equals(lease.revision());
        if (!takes || !lease.isHeldBy(self) || !KeeperContext.startOf(lease).equals(lease.revision())
                || StoreWentBack.acquireBelow(lease.revision(), now.floor())) {
            return step.into(state);
        }
        LeaseTtl counted = lease.ttl().duration().compareTo(ttl.duration()) < 0 ? lease.ttl() : ttl;
        Tenure tenure = Tenure.begin(key, self.holder(), lease.revision(), granted.saidAt(), counted);
        if (!tenure.actingAsOwner(now.nanos())) {
            return step.into(state);
        }
        step.then(new KeeperEffect.BecomeOwner(tenure));
        if (state instanceof KeeperState.Proving proving) {
            long timers = step.id();
            step.then(new KeeperEffect.Schedule(new KeeperEvent.DeadlineDue(timers), tenure.nanosLeft(now.nanos())));
            return step.into(new KeeperState.Renewing(tenure, timers, proving.presented(), proving.call(),
                    proving.sentAt()));
        }
        return tenancy.own(step, tenure, granted.saidAt(), counted.duration().toNanos(), now);
    }

    /**
     * The step after a rule threw, which is a bug: it must not leave the keeper waiting on a call
     * already answered, or with nothing pending. Ownership ends (it cannot be vouched for), and the
     * keeper campaigns again after the retry delay; a closing keeper closes, leaving the key to the TTL.
     */
    KeeperStep failSafe(KeeperState state, KeeperMemory memory) {
        KeeperStep.Builder step = new KeeperStep.Builder(memory);
        if (state.tenure().isPresent()) {
            step.then(new KeeperEffect.StopOwning(OwnershipListener.StopReason.LOST));
        }
        if (state instanceof KeeperState.Ending) {
            return step.into(new KeeperState.Closed());
        }
        return context.waitFor(step, context.retryDelay());
    }
}
