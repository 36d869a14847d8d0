package io.dagnats.leases.holder.internal.candidacy;

import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.Candidate;
import io.dagnats.leases.protocol.Candidate.State;
import java.util.Optional;

/**
 * A candidate's answer on {@code dagnats.lease.candidates.<key>} and the targeted
 * {@code dagnats.lease.candidate.<holder>.<key>} (ADR-042), as the holder's {@link Candidate}: the JSON
 * is the protocol's one codec ({@link io.dagnats.leases.protocol.Candidate}), which dagnats reads the
 * same answers with, so a holder drops exactly what dagnats drops. What does not read as one (another
 * key, a missing field, a negative wait, a priority beyond an int) is no candidate.
 */
public final class CandidateAnswer {

    private CandidateAnswer() {
    }

    public static byte[] write(LeaseKey key, Candidate candidate) {
        return new io.dagnats.leases.protocol.Candidate(key, candidate.holder(), candidate.incarnation(),
                candidate.priority(), candidate.version(), candidate.waited(),
                candidate.owner() ? State.OWNER : State.WAITING).encode();
    }

    /** The candidate {@code body} names for {@code key}; empty for anything else. */
    public static Optional<Candidate> read(LeaseKey key, byte[] body) {
        return io.dagnats.leases.protocol.Candidate.decode(body)
                .filter(answer -> answer.key().equals(key))
                .filter(answer -> answer.priority() >= Integer.MIN_VALUE && answer.priority() <= Integer.MAX_VALUE)
                .map(answer -> new Candidate(answer.holder(), answer.incarnation(), (int) answer.priority(),
                        answer.version(), answer.waited(), answer.state() == State.OWNER));
    }
}
