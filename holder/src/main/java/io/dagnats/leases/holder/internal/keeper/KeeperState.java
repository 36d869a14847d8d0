package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.Candidate;
import io.dagnats.leases.holder.internal.Waiting;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a {@link LeaseKeeper} stands, one of a few named phases with the data each needs.
 * A call or timer is named by an id ({@code call}, {@code timers}, {@code wake}): an event
 * that names another id is of a phase already left, and changes nothing.
 *
 * <p>Not owner: {@link Waiting}, {@link Acquiring}, {@link Proving}. Owner, each with the
 * tenure whose deadline bounds acting as owner: {@link Owning}, {@link Renewing},
 * {@link Unsure}, {@link Resolving}. Ending ({@link Ending}): {@link Closing}, {@link Draining},
 * {@link Releasing}, {@link Closed}; only the rules enter {@link Closed}, and the runner ends the
 * close when they do.
 *
 * <p>Phases that share data share a type, so a rule asks the type and not a ladder of phases:
 * the owner phases are {@link Owner} (a tenure and its timers), the phases that wait for a
 * call's answer {@link AwaitingCall} (the call), those that wait for a drain {@link AwaitingDrain}
 * (the drain).
 */
sealed interface KeeperState {

    /** The tenure this process acts as owner under, in the owner phases. */
    default Optional<Tenure> tenure() {
        return Optional.empty();
    }

    /** The owner phases: acting as owner under {@code current}, whose renew and deadline timers {@code timers} names. */
    sealed interface Owner extends KeeperState permits Owning, Renewing, Unsure, Resolving {
        Tenure current();

        long timers();

        @Override
        default Optional<Tenure> tenure() {
            return Optional.of(current());
        }
    }

    /** The phases that wait for the answer of the call {@code call} names: an answer to another call changes nothing. */
    sealed interface AwaitingCall extends KeeperState permits Acquiring, Proving, Renewing, Resolving, Closing, Releasing,
            HandingOver {
        long call();
    }

    /**
     * The phases that wait for the drain {@code drain} names (the tenure's work, the forward handlers
     * and the listener's stoppedOwning returned) before the lease moves: the end of another drain,
     * such as that of a yield the key's end cut short, is of a tenure already left, and moves nothing.
     */
    sealed interface AwaitingDrain extends KeeperState permits Draining, Yielding {
        long drain();
    }

    /** The phases of a close: no longer owner, and no close starts again. */
    sealed interface Ending extends KeeperState permits Closing, Draining, Releasing, Closed, Choosing {
    }

    /**
     * The phases of a handover (ADR-042): ownership has ended (the listener was told), and the
     * lease, still this process's at {@code held}, moves to {@code to} once the tenure's work has
     * returned. {@code start} is the tenure it began with, owned again after a renew if the
     * handover cannot be made; {@code closing}: a close asked for it, so nothing is owned again.
     */
    sealed interface Handover extends KeeperState permits Yielding, HandingOver {
        Fence start();

        Fence held();

        Candidate to();

        boolean closing();
    }

    /** Not started yet. */
    record Idle() implements KeeperState {
    }

    /** Not owner and nothing in flight: a wake-up (only the latest counts) campaigns again. */
    record Waiting(long wake) implements KeeperState {
    }

    /**
     * An acquire in flight.
     *
     * @param freedMeanwhile the key was freed since it was sent: an answer naming another
     *                       holder may predate that, so ask again soon
     */
    record Acquiring(long call, boolean freedMeanwhile) implements AwaitingCall {
    }

    /**
     * Granted, not owner yet: a renew of the grant is in flight, and only its write, made
     * after {@code sentAt}, proves time left (a grant may return an earlier write of this
     * very process, whose TTL is almost spent).
     *
     * @param start     the fence the tenure will start with: the grant's tenure
     * @param presented the fence the renew presented
     */
    record Proving(Fence start, Fence presented, long call, long sentAt) implements AwaitingCall {
    }

    /** Owner, nothing in flight; {@code timers} names its renew and deadline timers. */
    record Owning(Tenure current, long timers) implements Owner {
    }

    /** Owner, a renew in flight, sent at {@code sentAt} presenting {@code presented}. */
    record Renewing(Tenure current, long timers, Fence presented, long call, long sentAt) implements Owner, AwaitingCall {
    }

    /**
     * Owner until the deadline, but a renew went unanswered and the acquire that would tell
     * whether it landed could not be made: {@code retry} names the timer that tries again.
     */
    record Unsure(Tenure current, long timers, long retry) implements Owner {
    }

    /**
     * Owner until the deadline, a renew having gone unanswered: an acquire is in flight to
     * learn whether this process still holds the same acquisition (acquire is idempotent
     * within an incarnation), and at which revision.
     */
    record Resolving(Tenure current, long timers, long call) implements Owner, AwaitingCall {
    }

    /**
     * Closed while a call was in flight: its answer says what is left to release.
     *
     * @param held the fence this process last knew it held, released if the call tells nothing newer
     */
    record Closing(long call, boolean release, Optional<Fence> held) implements AwaitingCall, Ending {
        public Closing {
            Objects.requireNonNull(held, "held");
        }
    }

    /**
     * Closed, waiting for the forward handlers of the key to stop (the drain {@code drain}) before
     * {@code held} is released: until then this process may still act on the key, and a release
     * would let another owner in.
     */
    record Draining(Fence held, long drain) implements Ending, AwaitingDrain {
        public Draining {
            Objects.requireNonNull(held, "held");
        }
    }

    /** Closed, the release {@code call} in flight: its answer, or its failure, ends the close. */
    record Releasing(long call) implements AwaitingCall, Ending {
    }

    /**
     * Closed while owning: still owner under {@code current}, for the short window in which the
     * key's candidates answer the ask {@code ask}; the best waiting one is handed the lease, or,
     * with none, it is released. Ownership ends on the answer, or at the deadline that the owner's
     * timer {@code timers} names, whichever comes first: never acting past the deadline.
     */
    record Choosing(Tenure current, long timers, long ask) implements Ending {
        public Choosing {
            Objects.requireNonNull(current, "current");
        }

        @Override
        public Optional<Tenure> tenure() {
            return Optional.of(current);
        }
    }

    /** Stepped down for {@code to}: waiting for the tenure's work and forward handlers to return (drain {@code drain}). */
    record Yielding(Fence start, Fence held, Candidate to, long drain, boolean closing) implements Handover, AwaitingDrain {
        public Yielding {
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(held, "held");
            Objects.requireNonNull(to, "to");
        }
    }

    /** The handover {@code call} of {@code held} to {@code to} in flight. */
    record HandingOver(Fence start, Fence held, Candidate to, long call, boolean closing) implements Handover, AwaitingCall {
        public HandingOver {
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(held, "held");
            Objects.requireNonNull(to, "to");
        }
    }

    /** Nothing runs any more; what was held is released, or left to the TTL. */
    record Closed() implements Ending {
    }
}
