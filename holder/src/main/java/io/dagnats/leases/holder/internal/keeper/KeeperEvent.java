package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.holder.Candidate;
import io.dagnats.leases.holder.internal.HandoverAnswer;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import java.util.List;
import java.util.Optional;

/** What can happen to a {@link LeaseKeeper}: what {@link KeeperRules} takes, one at a time. */
sealed interface KeeperEvent {

    /** Campaign: once, after the key's change events are followed. */
    record Start() implements KeeperEvent {
    }

    /** A wake-up scheduled by {@link KeeperState.Waiting}. */
    record Wake(long wake) implements KeeperEvent {
    }

    /** The answer to acquire {@code call}. */
    record AcquireAnswered(long call, Answers.Acquire answer) implements KeeperEvent {
    }

    /** Renew {@code call} was answered. */
    record RenewAnswered(long call, Answers.Renew answer) implements KeeperEvent {
    }

    /**
     * Call {@code call} came back without an answer (no responders, a timeout, NATS down) or
     * with an error: it may or may not have written.
     *
     * @param finalError the sentence of an error that retrying will not cure, to log; empty otherwise
     */
    record CallFailed(long call, Optional<String> finalError) implements KeeperEvent {
    }

    /** A change event of the key; empty for a message that is no event of the contract. */
    record Changed(Optional<LeaseChange> change) implements KeeperEvent {
    }

    /** The owner's renew timer. */
    record RenewDue(long timers) implements KeeperEvent {
    }

    /** The owner's deadline timer. */
    record DeadlineDue(long timers) implements KeeperEvent {
    }

    /** {@link KeeperState.Unsure}'s retry timer. */
    record ResolveDue(long retry) implements KeeperEvent {
    }

    /** Stop keeping the key: release what is held, or leave it to the TTL ({@code release} false). */
    record Close(boolean release) implements KeeperEvent {
    }

    /**
     * The drain {@code drain} ended: the key's forward handlers, the tenure's work and the listener
     * returned ({@code inTime}), or one still ran when the drain's bound passed. The rules move the
     * lease only on the end of the drain their state waits for ({@link KeeperState.AwaitingDrain}).
     */
    record Drained(long drain, boolean inTime) implements KeeperEvent {
    }

    /** Release {@code call} came back, answered or not: either way there is nothing more to do for it. */
    record Released(long call) implements KeeperEvent {
    }

    /** The key's candidates that answered the ask {@code ask} within its window (none: empty). */
    record CandidatesAnswered(long ask, List<Candidate> candidates) implements KeeperEvent {
        public CandidatesAnswered {
            candidates = List.copyOf(candidates);
        }
    }

    /** The handover {@code call} was answered. */
    record HandoverAnswered(long call, HandoverAnswer answer) implements KeeperEvent {
    }

    /**
     * This process told an owner's handover check that it waits for the key: the lease may be
     * handed to it any moment, and if the handed-over event is lost, only an acquire soon tells.
     * {@code granting}: the check named itself, so dagnats will grant the yes once written (ADR-046);
     * a dagnats before that names none and grants nothing, and nothing is to be waited for.
     */
    record Expecting(boolean granting) implements KeeperEvent {
        /** A yes to a check that named itself. */
        Expecting() {
            this(true);
        }
    }

    /**
     * dagnats granted this process {@code lease}, handed over to it, in answer to its yes to the
     * handover check (ADR-046): the write came after the yes, which was about to be sent at
     * {@code saidAt} on the monotonic clock, so a deadline may count from then.
     */
    record Granted(LeaseView lease, long saidAt) implements KeeperEvent {
        public Granted {
            java.util.Objects.requireNonNull(lease, "lease");
        }
    }
}
