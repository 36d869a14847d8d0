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

    private final LeaseStore store;
    private final KnownLeases known;
    private final Clock clock;

    public AcquireLease(LeaseStore store, KnownLeases known, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.known = Objects.requireNonNull(known, "known");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public CompletionStage<Acquisition> execute(Command command) {
        // A key this instance has not seen is tried as never written: a fresh key is one write.
        return CompareAndSet.run(
                store,
                known,
                command.key(),
                true,
                Clocks.now(clock),
                state -> LeaseRules.acquire(state, command.holder(), command.ttl(), Clocks.now(clock)),
                (write, written) -> new Acquisition.Granted(
                        ((LeaseWrite.Put) write).leaseAt(written.revision())));
    }
}
