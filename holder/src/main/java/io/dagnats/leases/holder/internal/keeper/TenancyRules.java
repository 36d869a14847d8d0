package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import java.util.Optional;

/**
 * The owner phases of the keeper's rules: {@link KeeperState.Owning}, {@link KeeperState.Renewing},
 * {@link KeeperState.Unsure} and {@link KeeperState.Resolving}. In each, this process acts as
 * owner only until the tenure's deadline on its monotonic clock, whatever is in flight; a renew
 * that goes unanswered is resolved by an acquire (idempotent within this incarnation), which
 * keeps the tenure, its start and its fences when it shows the same acquisition.
 */
final class TenancyRules {

    private final KeeperContext rules;
    private final StoreWentBack wentBack;
    private final HandoverRules handovers;

    TenancyRules(KeeperContext rules, StoreWentBack wentBack, HandoverRules handovers) {
        this.rules = rules;
        this.wentBack = wentBack;
        this.handovers = handovers;
    }

    KeeperStep next(KeeperState.Owner state, KeeperEvent event, KeeperStep.Builder step, EventTime now) {
        Tenure tenure = state.current();
        if (event instanceof KeeperEvent.Changed changed && rules.endsOrTakes(changed, tenure.start())) {
            return ended(changed.change().orElseThrow(), step);
        }
        if (event instanceof KeeperEvent.DeadlineDue due && due.timers() == state.timers()) {
            return deadline(state, tenure, step, now);
        }
        if (state instanceof KeeperState.Owning owning) {
            if (event instanceof KeeperEvent.CandidatesAnswered answered) {
                return handovers.offered(owning, answered, step, now);
            }
            return event instanceof KeeperEvent.RenewDue due && due.timers() == owning.timers()
                    ? renew(step, tenure, owning.timers(), tenure.fence(), now) : step.into(state);
        }
        if (state instanceof KeeperState.Renewing renewing) {
            return renewing(renewing, event, step, now);
        }
        if (state instanceof KeeperState.Unsure unsure) {
            return event instanceof KeeperEvent.ResolveDue due && due.retry() == unsure.retry()
                    ? resolve(step, tenure, unsure.timers()) : step.into(state);
        }
        return resolving((KeeperState.Resolving) state, event, step, now);
    }

    /** Owner under {@code tenure}, confirmed by a renew sent at {@code sentAt}: arm its renew and deadline. */
    KeeperStep own(KeeperStep.Builder step, Tenure tenure, long sentAt, EventTime now) {
        return own(step, tenure, sentAt, rules.ttlNanos(), now);
    }

    /**
     * As {@link #own(KeeperStep.Builder, Tenure, long, EventTime)}, for a tenure whose deadline counts
     * {@code ttlNanos} from {@code sentAt} (a grant of a record written with a TTL shorter than this
     * keeper's, ADR-046): its first renew is due a third of that after, not of this keeper's own TTL,
     * which may come after the deadline.
     */
    KeeperStep own(KeeperStep.Builder step, Tenure tenure, long sentAt, long ttlNanos, EventTime now) {
        long timers = step.id();
        step.then(new KeeperEffect.Schedule(new KeeperEvent.RenewDue(timers),
                Math.max(0, sentAt + ttlNanos / 3 - now.nanos())));
        step.then(new KeeperEffect.Schedule(new KeeperEvent.DeadlineDue(timers),
                Math.max(0, tenure.nanosLeft(now.nanos()))));
        handovers.askIfYielding(step);
        return step.into(new KeeperState.Owning(tenure, timers));
    }

    private KeeperStep renewing(KeeperState.Renewing renewing, KeeperEvent event, KeeperStep.Builder step,
            EventTime now) {
        if (event instanceof KeeperEvent.CallFailed failed && failed.call() == renewing.call()) {
            // It may have written: ask, rather than give the tenure up (the contract's rule for an unknown renew).
            failed.finalError().ifPresent(error -> step.then(rules.warning(error)));
            return resolve(step, renewing.current(), renewing.timers());
        }
        if (!(event instanceof KeeperEvent.RenewAnswered answered) || answered.call() != renewing.call()) {
            return step.into(renewing);
        }
        if (answered.answer() instanceof Answers.Renew.Lost lost) {
            step.then(rules.info("lease " + rules.key() + " lost: " + lost.reason()));
            step.then(new KeeperEffect.StopOwning(OwnershipListener.StopReason.LOST));
            return rules.waitFor(step, rules.jitter().millis(KeeperContext.AGAIN_JITTER_MS) * KeeperContext.MILLI);
        }
        Fence renewed = ((Answers.Renew.Renewed) answered.answer()).lease().revision();
        // Before the tenure sees it: a renew cannot lower the fence, and one that does is the store going back.
        Fence floor = StoreWentBack.floor(now, renewing.current().fence());
        if (StoreWentBack.renewBelow(renewed, floor)) {
            return wentBack.wentBack(step, "a renew", renewed, floor, true);
        }
        Tenure next = renewing.current().renewed(renewed, renewing.sentAt(), rules.ttl());
        if (!next.actingAsOwner(now.nanos())) {
            step.then(new KeeperEffect.StopOwning(OwnershipListener.StopReason.DEADLINE_PASSED));
            return rules.prove(step, next.start(), renewed, now);
        }
        return own(step.then(new KeeperEffect.Renew(renewing.current(), next)), next, renewing.sentAt(), now);
    }

    private KeeperStep resolving(KeeperState.Resolving resolving, KeeperEvent event, KeeperStep.Builder step,
            EventTime now) {
        if (event instanceof KeeperEvent.CallFailed failed && failed.call() == resolving.call()) {
            failed.finalError().ifPresent(error -> step.then(rules.warning(error)));
            long retry = step.id();
            step.then(new KeeperEffect.Schedule(new KeeperEvent.ResolveDue(retry), rules.retryDelay()));
            return step.into(new KeeperState.Unsure(resolving.current(), resolving.timers(), retry));
        }
        if (!(event instanceof KeeperEvent.AcquireAnswered answered) || answered.call() != resolving.call()) {
            return step.into(resolving);
        }
        LeaseView lease = answered.answer().lease();
        boolean mine = answered.answer() instanceof Answers.Acquire.Granted && lease.isHeldBy(rules.self());
        Optional<Fence> floor = Optional.of(StoreWentBack.floor(now, resolving.current().fence()));
        if (mine && StoreWentBack.acquireBelow(lease.revision(), floor)) {
            return wentBack.wentBack(step, "the acquire resolving an unanswered renew", lease.revision(),
                    floor.get(), true);
        }
        if (mine && lease.tenure().filter(resolving.current().start()::equals).isPresent()) {
            // The same acquisition, at the revision the unanswered renew left it at (or before it): renew that.
            return renew(step, resolving.current(), resolving.timers(), lease.revision(), now);
        }
        step.then(rules.info("lease " + rules.key() + " lost: after an unanswered renew it is "
                + (mine ? "a new acquisition of this process" : "held by " + lease.claimant())));
        step.then(new KeeperEffect.StopOwning(OwnershipListener.StopReason.LOST));
        return mine ? rules.prove(step, KeeperContext.startOf(lease), lease.revision(), now)
                : rules.waitAfterExpiry(step, lease, now);
    }

    private KeeperStep deadline(KeeperState.Owner state, Tenure tenure, KeeperStep.Builder step, EventTime now) {
        if (tenure.actingAsOwner(now.nanos())) {
            // Early (a timer of the runner's own clock): look again at the deadline.
            long left = tenure.nanosLeft(now.nanos());
            return step.then(new KeeperEffect.Schedule(new KeeperEvent.DeadlineDue(state.timers()), left)).into(state);
        }
        step.then(new KeeperEffect.StopOwning(OwnershipListener.StopReason.DEADLINE_PASSED));
        if (state instanceof KeeperState.Renewing renewing) {
            // Its answer may still prove time left: wait for it as for a grant's renew.
            return step.into(new KeeperState.Proving(tenure.start(), renewing.presented(), renewing.call(),
                    renewing.sentAt()));
        }
        if (state instanceof KeeperState.Resolving resolving) {
            return step.into(new KeeperState.Acquiring(resolving.call(), false));
        }
        return rules.acquire(step);
    }

    private KeeperStep ended(LeaseChange change, KeeperStep.Builder step) {
        if (change.kind() == LeaseChange.Kind.REVOKED) {
            step.then(rules.info(revokedLine(change)));
            step.then(new KeeperEffect.StopOwning(OwnershipListener.StopReason.REVOKED));
            // Revoked: an operator moved the key away, so step back and let a waiting replica take it.
            return rules.waitFor(step, rules.ttlNanos() / 3);
        }
        step.then(rules.info("lease " + rules.key() + " ended on the server (" + change.kind().word() + " at revision "
                + Long.toUnsignedString(change.sequence())
                + change.claimant().map(claimant -> " by " + claimant).orElse("")
                + change.reason().map(reason -> ": " + reason).orElse("") + ")"));
        step.then(new KeeperEffect.StopOwning(OwnershipListener.StopReason.LOST));
        return rules.waitFor(step, rules.jitter().millis(KeeperContext.AGAIN_JITTER_MS) * KeeperContext.MILLI);
    }

    /**
     * The holder a revoke event names is the lease that ended, not who revoked it. Who did is the
     * event's {@code Dagnats-Lease-Revoked-By} when dagnats knew (ADR-041); a revoke dagnats wrote
     * without it (it names that holder) came from an unnamed operator through
     * {@code api.leases.revoke}; one naming nobody is the key removed with NATS' own tools, which
     * its reason says.
     */
    private String revokedLine(LeaseChange change) {
        String by = change.revokedBy().map(revoker -> " by " + revoker)
                .orElse(change.holder().isPresent() ? " by an operator" : "");
        return "lease " + rules.key() + " revoked" + by
                + " at revision " + Long.toUnsignedString(change.sequence()) + ": "
                + change.reason().orElse("no reason given") + "; this process (holder " + rules.self().holder()
                + ") stops acting as owner";
    }

    private KeeperStep renew(KeeperStep.Builder step, Tenure tenure, long timers, Fence presented, EventTime now) {
        long call = step.id();
        return step.then(new KeeperEffect.SendRenew(call, presented))
                .into(new KeeperState.Renewing(tenure, timers, presented, call, now.nanos()));
    }

    private KeeperStep resolve(KeeperStep.Builder step, Tenure tenure, long timers) {
        long call = step.id();
        return step.then(new KeeperEffect.SendAcquire(call)).into(new KeeperState.Resolving(tenure, timers, call));
    }
}
