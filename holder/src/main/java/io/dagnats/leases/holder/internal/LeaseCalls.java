package io.dagnats.leases.holder.internal;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.DagnatsException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The calls that keeping a lease makes. {@code LeaseClient} makes them on
 * the wire; the state machine's unit tests script them. A stage fails only with
 * {@link DagnatsException}; normal answers are values.
 */
public interface LeaseCalls {

    CompletableFuture<Answers.Acquire> acquire(LeaseKey key, Claimant holder, LeaseTtl ttl);

    CompletableFuture<Answers.Renew> renew(LeaseKey key, Claimant holder, Fence revision, Optional<LeaseTtl> ttl);

    CompletableFuture<Answers.Release> release(LeaseKey key, Claimant holder, Fence revision);

    /**
     * Hands {@code holder}'s lease at {@code revision} to {@code successor} (ADR-042): fails, as the
     * others do, when unanswered; by default, for a caller that cannot hand over, it always fails.
     */
    default CompletableFuture<Answers.Handover> handover(LeaseKey key, Claimant holder, Fence revision,
            Claimant successor) {
        return CompletableFuture.failedFuture(new DagnatsException(io.dagnats.leases.domain.ErrorKind.UNSUPPORTED,
                "this client cannot hand a lease over"));
    }
}
