package io.dagnats.leases.holder.internal;

import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.Candidate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Asks a key's candidates live: one core request on {@code dagnats.lease.candidates.<key>}, every
 * answer gathered until {@code window} closes (malformed ones dropped). Never fails: nobody
 * answering, or NATS away, is an empty list.
 */
@FunctionalInterface
public interface CandidateCalls {

    /** Answers nobody: for a keeper whose tests script no candidates. */
    CandidateCalls NOBODY = (key, window) -> CompletableFuture.completedFuture(List.of());

    CompletableFuture<List<Candidate>> ask(LeaseKey key, Duration window);
}
