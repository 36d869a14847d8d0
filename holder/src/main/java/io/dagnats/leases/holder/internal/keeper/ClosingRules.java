package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The closing of a {@link KeeperRules} keeper, to its end: ownership ends at once; a call in
 * flight is waited for ({@link KeeperState.Closing}), since its answer may change what is held;
 * what is held is released once no forward handler of the key still runs
 * ({@link KeeperState.Draining}, then {@link KeeperState.Releasing}), or, abandoned, left to the
 * TTL. Only these rules enter {@link KeeperState.Closed}; the runner ends the close when they do.
 */
final class ClosingRules {

    /** How long a close waits for interrupted forward handlers before it gives up releasing. */
    static final Duration HANDLER_DRAIN = Duration.ofSeconds(5);
    /** The stops that say the lease moves on from this process: untrue once a close is abandoned before it moved. */
    private static final Set<OwnershipListener.StopReason> SAYS_IT_MOVES = EnumSet.of(OwnershipListener.StopReason.RELEASED,
            OwnershipListener.StopReason.HANDED_OVER, OwnershipListener.StopReason.PREFERRED_CANDIDATE);

    private final LeaseKey key;
    private final Claimant self;

    ClosingRules(LeaseKey key, Claimant self) {
        this.key = key;
        this.self = self;
    }

    KeeperStep close(KeeperState state, boolean release, KeeperStep.Builder step) {
        if (state instanceof KeeperState.Ending) {
            return release ? step.into(state) : abandoned((KeeperState.Ending) state, step);
        }
        Optional<Tenure> tenure = state.tenure();
        if (tenure.isPresent()) {
            step.then(new KeeperEffect.StopOwning(release
                    ? OwnershipListener.StopReason.RELEASED : OwnershipListener.StopReason.ABANDONED));
        }
        // What this process last knew it held: the tenure's fence, or the grant its renew is proving.
        Optional<Fence> held = state instanceof KeeperState.Proving proving
                ? Optional.of(proving.presented()) : tenure.map(Tenure::fence);
        if (state instanceof KeeperState.AwaitingCall awaiting) {
            return step.into(new KeeperState.Closing(awaiting.call(), release, held));
        }
        return release(step, release ? held : Optional.empty());
    }

    /**
     * An abandon during a close: this process may still act through a tenure it handed out, so what
     * the close would still release is left to the TTL (a release already sent is not recalled), and
     * a listener told the close releases is told ABANDONED ({@link #restateAbandoned}).
     */
    private static KeeperStep abandoned(KeeperState.Ending ending, KeeperStep.Builder step) {
        if (ending instanceof KeeperState.Draining) {
            return restateAbandoned(step).into(new KeeperState.Closed());
        }
        if (ending instanceof KeeperState.Closing closing) {
            restateAbandoned(step);
            return step.into(new KeeperState.Closing(closing.call(), false, closing.held()));
        }
        return step.into(ending);
    }

    /**
     * A close abandoned before it moved the lease: a listener last told it stopped owning because the
     * lease was released or handed over (or was being handed to a preferred candidate) is told
     * {@code ABANDONED}, and that is its last stop; nothing moved, the TTL frees the key.
     */
    static KeeperStep.Builder restateAbandoned(KeeperStep.Builder step) {
        if (step.memory().toldStop().filter(SAYS_IT_MOVES::contains).isPresent()) {
            step.then(new KeeperEffect.Restate(OwnershipListener.StopReason.ABANDONED));
        }
        return step;
    }

    /** An event in one of the phases of a close. */
    KeeperStep ending(KeeperState.Ending ending, KeeperEvent event, KeeperStep.Builder step) {
        if (ending instanceof KeeperState.Closing closing) {
            return closing(closing, event, step);
        }
        if (ending instanceof KeeperState.Draining draining && event instanceof KeeperEvent.Drained drained
                && drained.drain() == draining.drain()) {
            return drained(draining, drained, step);
        }
        if (ending instanceof KeeperState.Releasing releasing && event instanceof KeeperEvent.Released released
                && released.call() == releasing.call()) {
            return step.into(new KeeperState.Closed()); // a release that failed is answered lost later, harming nothing
        }
        return step.into(ending);
    }

    private KeeperStep closing(KeeperState.Closing closing, KeeperEvent event, KeeperStep.Builder step) {
        Optional<Fence> held;
        if (event instanceof KeeperEvent.AcquireAnswered answered && answered.call() == closing.call()) {
            LeaseView lease = answered.answer().lease();
            held = answered.answer() instanceof Answers.Acquire.Granted && lease.isHeldBy(self)
                    ? Optional.of(lease.revision()) : Optional.empty();
        } else if (event instanceof KeeperEvent.RenewAnswered answered && answered.call() == closing.call()) {
            held = answered.answer() instanceof Answers.Renew.Renewed renewed
                    ? Optional.of(renewed.lease().revision()) : Optional.empty();
        } else if (event instanceof KeeperEvent.CallFailed failed && failed.call() == closing.call()) {
            held = closing.held(); // a release under it is answered lost if the call wrote; nothing is harmed
        } else {
            return step.into(closing);
        }
        return release(step, closing.release() ? held : Optional.empty());
    }

    /**
     * Released once no forward handler still runs; a handler that ignored its interrupt past
     * {@link #HANDLER_DRAIN} may still act on the key, so the key is left to the TTL instead.
     */
    private KeeperStep drained(KeeperState.Draining draining, KeeperEvent.Drained drained, KeeperStep.Builder step) {
        if (!drained.inTime()) {
            return step.then(new KeeperEffect.Log(System.Logger.Level.WARNING, "a forward handler, the tenure's work or the"
                    + " listener's stoppedOwning of " + key + " still runs " + HANDLER_DRAIN.toSeconds() + " s after"
                    + " ownership ended; the lease is not"
                    + " released, the server's TTL will free it")).into(new KeeperState.Closed());
        }
        long call = step.id();
        return step.then(new KeeperEffect.SendRelease(call, draining.held())).into(new KeeperState.Releasing(call));
    }

    /** Releases {@code held}, once the handlers have drained, or, with nothing to release, closes at once. */
    private static KeeperStep release(KeeperStep.Builder step, Optional<Fence> held) {
        return held.isEmpty() ? step.into(new KeeperState.Closed()) : drainThenRelease(step, held.get());
    }

    /** A drain of its own, whose end (and no other's) lets the release of {@code held} go. */
    static KeeperStep drainThenRelease(KeeperStep.Builder step, Fence held) {
        long drain = step.id();
        return step.then(new KeeperEffect.DrainHandlers(drain, HANDLER_DRAIN)).into(new KeeperState.Draining(held, drain));
    }
}
