package io.dagnats.leases.application;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseRules;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/** Grants a free key, or says who holds it. Idempotent for the current holder. */
public final class AcquireLease {

    /** @param ttl how long the lease lives after the granting write */
    public record Command(LeaseKey key, Claimant holder, LeaseTtl ttl) {
        public Command {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(ttl, "ttl");
        }

        /** An acquire by a plain holder, with no incarnation. */
        public Command(LeaseKey key, HolderId holder, LeaseTtl ttl) {
            this(key, Claimant.of(holder), ttl);
        }
    }

    private final LeaseWriter writer;

    public AcquireLease(LeaseWriter writer) {
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    public AcquireLease(LeaseStore store, KnownLeases known, Clock clock) {
        this(new LeaseWriter(store, known, clock));
    }

    public CompletionStage<Acquisition> execute(Command command) {
        // A key this instance has not seen is tried as never written: a fresh key is one write.
        return writer.write(command.key(), true,
                state -> LeaseRules.acquire(state, command.holder(), command.ttl(), writer.now()),
                (write, written) -> new Acquisition.Granted(((LeaseWrite.Put) write).leaseAt(written.revision())));
    }
}
