package io.dagnats.leases.application;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseRules;
import io.dagnats.leases.domain.Release;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/** Frees the caller's lease under the same fence check as a renew. */
public final class ReleaseLease {

    public record Command(LeaseKey key, Claimant holder, Fence revision) {
        public Command {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(revision, "revision");
        }

        /** A release by a plain holder, with no incarnation. */
        public Command(LeaseKey key, HolderId holder, Fence revision) {
            this(key, Claimant.of(holder), revision);
        }
    }

    private final LeaseWriter writer;

    public ReleaseLease(LeaseWriter writer) {
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    /** @param clock only ever makes a remembered lease propose less (see {@link LeaseWriter}) */
    public ReleaseLease(LeaseStore store, KnownLeases known, Clock clock) {
        this(new LeaseWriter(store, known, clock));
    }

    public CompletionStage<Release> execute(Command command) {
        PresentedRevision<Release> presented = new PresentedRevision<>(command.key(), command.revision(),
                Optional.empty());
        return writer.write(command.key(), false,
                presented.watching(state -> LeaseRules.release(state, command.holder(), command.revision())),
                (write, written) -> new Release.Released(write.key(), write.holder(), written.revision()))
                // A revision above the store's last sequence proves the store went back (ADR-037).
                .thenCompose(release -> presented.checked(writer, release));
    }
}
