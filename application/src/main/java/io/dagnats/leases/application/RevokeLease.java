package io.dagnats.leases.application;

import io.dagnats.leases.domain.Decision;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseRules;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Revocation;
import io.dagnats.leases.domain.RevokeReason;
import io.dagnats.leases.domain.Revoker;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * An operator frees a key over its holder's head: the same compare-and-set
 * tombstone a release writes, naming the holder, its fence and the reason. The
 * holder learns from the change event or at its next renew ({@code lost});
 * until then it may still believe it owns, which only downstream fencing can stop.
 */
public final class RevokeLease {

    /**
     * @param revision revoke only while this is the current fence; empty for whatever lease is current
     * @param by       who revokes, named on the write ({@link Revoker#named}); empty names nobody
     */
    public record Command(LeaseKey key, RevokeReason reason, Optional<Fence> revision, Optional<Revoker> by) {
        public Command {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(revision, "revision");
            Objects.requireNonNull(by, "by");
        }

        /** A revoke that names nobody as its revoker. */
        public Command(LeaseKey key, RevokeReason reason, Optional<Fence> revision) {
            this(key, reason, revision, Optional.empty());
        }
    }

    private final LeaseWriter writer;

    public RevokeLease(LeaseWriter writer) {
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    /** @param clock only ever makes a remembered lease propose less (see {@link LeaseWriter}) */
    public RevokeLease(LeaseStore store, KnownLeases known, Clock clock) {
        this(new LeaseWriter(store, known, clock));
    }

    /**
     * A key that changed under the write is read and decided again (at most three times, then
     * {@code unavailable}). With a revision given, the re-read shows a new fence and the answer
     * is {@link Revocation.NotCurrent}. Without one, the revoke ends the tenure it first decided
     * to end (this service's memory of the key, or its first read), renewed since or not; a
     * re-read showing another holder, or a new tenure, answers {@link Revocation.NotCurrent}
     * too: the operator never looked at that lease.
     */
    public CompletionStage<Revocation> execute(Command command) {
        return writer.write(command.key(), false, rules(command),
                (write, written) -> {
                    LeaseWrite.Tombstone tombstone = (LeaseWrite.Tombstone) write;
                    return new Revocation.Revoked(
                            write.key(), tombstone.holder(), written.revision(), tombstone.endedFence());
                });
    }

    private static CallRules<Revocation> rules(Command command) {
        return new CallRules<>() {
            @Override
            public Decision<Revocation> decide(KeyState state) {
                return LeaseRules.revoke(state, command.revision(), command.reason(), command.by());
            }

            @Override
            public CallRules<Revocation> afterLosing(LeaseWrite lost) {
                if (command.revision().isPresent()) {
                    return this;
                }
                Lease first = ((LeaseWrite.Tombstone) lost).ended();
                return state -> LeaseRules.revokeAgain(state, first, command.reason(), command.by());
            }
        };
    }
}
