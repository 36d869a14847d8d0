package io.dagnats.leases.application;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HandoverCheck;
import io.dagnats.leases.domain.Lease;
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
 *
 * <p>A yes is the successor's own claim (ADR-046): it remembers when it said it, and once the
 * handover is written, {@link Reply.Waiting#grant} tells it, answering that very yes. The write was
 * made after the yes was sent, so the successor may count its deadline from then and own at once,
 * without a renew of its own after the write.
 */
@FunctionalInterface
public interface SuccessorCheck {

    CompletionStage<Reply> ask(LeaseKey key, Claimant successor, Duration timeout);

    /** What the successor said. */
    sealed interface Reply {

        /**
         * It waits for the key under the incarnation asked for, and now expects it; {@code grant}
         * tells it, once, that the handover this yes was for is written. {@code check} names the
         * check it said yes to: the handover's write carries it (ADR-047), so the write's change
         * event tells the successor too.
         */
        record Waiting(HandoverCheck check, Grant grant) implements Reply {
            public Waiting {
                Objects.requireNonNull(check, "check");
                Objects.requireNonNull(grant, "grant");
            }
        }

        /** Anything else: {@code why} says what, for the caller's {@code no_successor} sentence. */
        record NotWaiting(String why) implements Reply {
            public NotWaiting {
                Objects.requireNonNull(why, "why");
            }
        }
    }

    /** Tells the successor that answered yes that its handover is written; best effort, never throws. */
    @FunctionalInterface
    interface Grant {
        /** The grant of a successor that answers no grants (a holder before ADR-046): it renews on the event. */
        Grant NONE = written -> {
        };

        void handedOver(Lease written);
    }
}
