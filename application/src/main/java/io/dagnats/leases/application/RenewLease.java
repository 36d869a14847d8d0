package io.dagnats.leases.application;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseRules;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Renewal;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/** Extends the caller's lease under a new fence, or tells it the lease is lost. */
public final class RenewLease {

    /** @param ttl the new TTL; empty keeps the lease's current one */
    public record Command(LeaseKey key, Claimant holder, Fence revision, Optional<LeaseTtl> ttl) {
        public Command {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(revision, "revision");
            Objects.requireNonNull(ttl, "ttl");
        }

        /** A renew by a plain holder, with no incarnation. */
        public Command(LeaseKey key, HolderId holder, Fence revision, Optional<LeaseTtl> ttl) {
            this(key, Claimant.of(holder), revision, ttl);
        }
    }

    private final LeaseWriter writer;

    public RenewLease(LeaseWriter writer) {
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    public RenewLease(LeaseStore store, KnownLeases known, Clock clock) {
        this(new LeaseWriter(store, known, clock));
    }

    public CompletionStage<Renewal> execute(Command command) {
        PresentedRevision<Renewal> presented = new PresentedRevision<>(command.key(), command.revision(),
                command.ttl());
        // The caller's own last write is usually remembered: then the renew is one write.
        return writer.write(command.key(), false,
                presented.watching(state -> LeaseRules.renew(state, command.holder(), command.revision(), command.ttl(),
                        writer.now())),
                (write, written) -> new Renewal.Renewed(((LeaseWrite.Put) write).leaseAt(written.revision())))
                // A revision above the store's last sequence proves the store went back (ADR-037).
                .thenCompose(renewal -> presented.checked(writer, renewal));
    }
}
