package io.dagnats.leases.application;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.LeaseKey;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * Asks the one process a handover names whether it waits for the key right now, under that
 * incarnation, and will take it (ADR-042). Nothing but a live "yes" from that process lets a
 * handover write: a successor that is gone, answers for another incarnation, or does not answer in
 * time is {@link Reply.NotWaiting}, and the lease stays its owner's. The stage fails with
 * {@link LeaseFailure} only when this side cannot ask at all.
 */
@FunctionalInterface
public interface SuccessorCheck {

    CompletionStage<Reply> ask(LeaseKey key, Claimant successor, Duration timeout);

    /** What the successor said. */
    sealed interface Reply {

        /** It waits for the key under the incarnation asked for, and now expects it. */
        record Waiting() implements Reply {
        }

        /** Anything else: {@code why} says what, for the caller's {@code no_successor} sentence. */
        record NotWaiting(String why) implements Reply {
            public NotWaiting {
                Objects.requireNonNull(why, "why");
            }
        }
    }
}
