package io.dagnats.leases.application;

import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.Lease;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;

/**
 * The held leases, a page at a time: what an operator lists. A walk starts at
 * position 0 and goes on from each page's {@link Page#next()} until a page has
 * none.
 *
 * <p>A walk is not a snapshot: it misses no lease held for the whole walk, but
 * a lease renewed during it may come twice (under both revisions), and a page
 * may be read from a replica that lags the leader. It is for people and
 * dashboards; one key's authoritative owner is {@link LeaseStore#read}'s.
 *
 * <p>Answers asynchronously and never blocks the caller's thread. A stage that
 * fails does so with {@link LeaseFailure}: {@link ErrorKind#UNAVAILABLE} when the
 * store did not answer in time, {@link ErrorKind#UNSUPPORTED} when it cannot
 * serve leases, {@link ErrorKind#INTERNAL} for an answer it cannot read.
 */
@FunctionalInterface
public interface LeaseListing {

    /**
     * One page of the walk.
     *
     * @param prefix only leases whose keys start with it
     * @param from   0 for the first page, or the {@link Page#next()} of the page before
     * @param limit  at most this many stored messages are looked at (so at most this many
     *               leases come back), 1 or more: a page costs what its limit says, whatever
     *               the prefix matches
     */
    CompletionStage<Page> page(KeyPrefix prefix, long from, int limit);

    /**
     * @param leases the held leases this page found; fewer than the limit, even none, when
     *               released keys, expired keys or other prefixes took the rest
     * @param next   where the next page starts; empty when the walk is over
     */
    record Page(List<Lease> leases, OptionalLong next) {
        public Page {
            leases = List.copyOf(leases);
            Objects.requireNonNull(next, "next");
        }
    }
}
