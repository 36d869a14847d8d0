package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.holder.Candidate;
import io.dagnats.leases.holder.KeepOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Whom an owner hands its lease to, as pure functions of the candidates that answered: on close,
 * the best waiting one; while healthy, a strictly better one than itself, and only as the brakes
 * allow (it has wanted the key for {@code minCandidacy}, and the owner has not yielded within
 * {@code yieldInterval}). Candidates that answered as owner, or that are this very process, are
 * never chosen.
 */
final class Successors {

    private Successors() {
    }

    /** The best waiting candidate by the key's strategy, to hand over to on close. */
    static Optional<Candidate> onClose(Claimant self, List<Candidate> answered, KeepOptions options) {
        return waiting(self, answered).min(options.succession().order());
    }

    /**
     * The candidate to step down for now, if any: the best waiting one that has wanted the key at
     * least {@code minCandidacy}, if the strategy ranks it strictly above this owner's own candidacy
     * and no yield happened within {@code yieldInterval} of {@code now}. An owner without candidacy
     * says nothing of itself to compare, and never yields.
     */
    static Optional<Candidate> toYieldTo(Claimant self, List<Candidate> answered, KeepOptions options, long now,
            OptionalLong lastYield) {
        if (!options.succession().yieldsWhileHealthy() || options.candidacy().isEmpty()) {
            return Optional.empty();
        }
        if (lastYield.isPresent() && now - lastYield.getAsLong() < options.yieldInterval().toNanos()) {
            return Optional.empty();
        }
        KeepOptions.Priority mine = options.candidacy().get();
        Candidate me = new Candidate(self.holder(), self.incarnation().orElseThrow(), mine.priority(), mine.version(),
                Duration.ZERO, true);
        return waiting(self, answered)
                .filter(candidate -> candidate.waited().compareTo(options.minCandidacy()) >= 0)
                .min(options.succession().order())
                .filter(best -> options.succession().compare(best, me) < 0);
    }

    private static java.util.stream.Stream<Candidate> waiting(Claimant self, List<Candidate> answered) {
        return answered.stream().filter(Candidate::waiting)
                .filter(candidate -> !candidate.holder().equals(self.holder()));
    }
}
