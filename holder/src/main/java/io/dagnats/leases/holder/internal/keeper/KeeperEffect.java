package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.Candidate;
import java.time.Duration;

/** What {@link KeeperRules} asks the {@link LeaseKeeper} to do, in order. */
sealed interface KeeperEffect {

    /** Send an acquire; its outcome comes back as an event naming {@code call}. */
    record SendAcquire(long call) implements KeeperEffect {
    }

    /** Send a renew presenting {@code fence}; its outcome comes back as an event naming {@code call}. */
    record SendRenew(long call, Fence fence) implements KeeperEffect {
    }

    /** Feed {@code event} back after {@code delayNanos} on the monotonic clock. */
    record Schedule(KeeperEvent event, long delayNanos) implements KeeperEffect {
    }

    /** Act as owner under {@code tenure} from now: publish it, and tell the listener. */
    record BecomeOwner(Tenure tenure) implements KeeperEffect {
    }

    /**
     * Keep acting as owner under {@code tenure}, renewed from {@code previous}: publish it, tell
     * the listener, and record how much time {@code previous} still had.
     */
    record Renew(Tenure previous, Tenure tenure) implements KeeperEffect {
    }

    /** Stop acting as owner at once (no forward is admitted from here on), and tell the listener. */
    record StopOwning(OwnershipListener.StopReason reason) implements KeeperEffect {
    }

    /**
     * Ownership has ended already, but why the listener (and {@code lastStop}) was told no longer
     * holds: a close abandoned before it handed over or released leaves the key to its TTL. Make
     * {@code reason} the last stop; the listener is not told again (one stoppedOwning per tenure).
     */
    record Restate(OwnershipListener.StopReason reason) implements KeeperEffect {
    }

    /**
     * Tell dagnats the store went back: one renew presenting {@code floor}, the highest fence this
     * process confirmed for the key, of the key's probe ({@link WentBackProbe}), a key nobody
     * holds. A renew of a free key presenting a revision above the stream's last sequence is
     * dagnats' proof that the stream lost writes, on which it moves the bucket's revisions above
     * every earlier one (ADR-037, ADR-039); the key itself stays held by this process's own older
     * record, which nobody else can then take at a repeated fence. The answer is ignored (tied to
     * no state, it stalls nothing).
     */
    record ReportWentBack(Fence floor) implements KeeperEffect {
    }

    /**
     * Wait, at most {@code within}, for the key's forward handlers (told to stop) and the ended
     * tenure's work ({@link io.dagnats.leases.holder.TenureWork}, cancelled) to end; the outcome
     * comes back as {@link KeeperEvent.Drained} naming {@code drain}.
     */
    record DrainHandlers(long drain, Duration within) implements KeeperEffect {
    }

    /** Send a release of {@code held}; its outcome, answered or not, comes back as {@link KeeperEvent.Released} naming {@code call}. */
    record SendRelease(long call, Fence held) implements KeeperEffect {
    }

    /** Ask the key's candidates, gathering answers for {@code window}; they come back as {@link KeeperEvent.CandidatesAnswered}. */
    record AskCandidates(long ask, Duration window) implements KeeperEffect {
    }

    /** Send a handover of {@code held} to {@code to}; its outcome comes back as an event naming {@code call}. */
    record SendHandover(long call, Fence held, Candidate to) implements KeeperEffect {
    }

    /** One line for operators. */
    record Log(System.Logger.Level level, String line) implements KeeperEffect {
    }
}
