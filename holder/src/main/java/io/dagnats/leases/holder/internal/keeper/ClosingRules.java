package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import java.util.Optional;

/**
 * The closing of a {@link KeeperRules} keeper: ownership ends at once; what is held is released
 * (or, abandoned, left to the TTL) once no call in flight can still change what that is. A close
 * while a call is in flight waits for it in {@link KeeperState.Closing}.
 */
final class ClosingRules {

    private final Claimant self;

    ClosingRules(Claimant self) {
        this.self = self;
    }

    KeeperStep closing(KeeperState.Closing closing, KeeperEvent event, KeeperStep.Builder step) {
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
        return finish(step, closing.release() ? held : Optional.empty());
    }

    KeeperStep close(KeeperState state, boolean release, KeeperStep.Builder step) {
        if (state instanceof KeeperState.Closing || state instanceof KeeperState.Closed) {
            return step.into(state);
        }
        Optional<Tenure> tenure = state.tenure();
        if (tenure.isPresent()) {
            step.then(new KeeperEffect.StopOwning(release
                    ? OwnershipListener.StopReason.RELEASED : OwnershipListener.StopReason.ABANDONED));
        }
        // What this process last knew it held: the tenure's fence, or the grant its renew is proving.
        Optional<Fence> held = state instanceof KeeperState.Proving proving
                ? Optional.of(proving.presented()) : tenure.map(Tenure::fence);
        Optional<Long> inFlight = inFlight(state);
        if (inFlight.isPresent()) {
            return step.into(new KeeperState.Closing(inFlight.get(), release, held));
        }
        return finish(step, release ? held : Optional.empty());
    }

    /** The call whose answer the state waits for, if any. */
    private static Optional<Long> inFlight(KeeperState state) {
        return state instanceof KeeperState.AwaitingCall awaiting ? Optional.of(awaiting.call()) : Optional.empty();
    }

    private static KeeperStep finish(KeeperStep.Builder step, Optional<Fence> release) {
        step.then(release.<KeeperEffect>map(KeeperEffect.ReleaseAndFinish::new).orElse(new KeeperEffect.Finish()));
        return step.into(new KeeperState.Closed());
    }
}
