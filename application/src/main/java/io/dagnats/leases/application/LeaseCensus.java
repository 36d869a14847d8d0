package io.dagnats.leases.application;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * How many leases are held and by how many holders: a walk of the whole
 * listing, for the lease gauges, never on a request's path. As the walk is not
 * a snapshot, the count is of keys held at some point during it: a key renewed
 * during the walk is counted once, under the holder seen last.
 */
public final class LeaseCensus {

    /** Messages looked at per page: the listing's own page size for operators. */
    static final int PAGE = 1000;

    /** @param holders distinct holders holding one lease or more */
    public record Count(long leases, long holders) {
    }

    private final LeaseListing listing;

    public LeaseCensus(LeaseListing listing) {
        this.listing = Objects.requireNonNull(listing, "listing");
    }

    /** Fails as the listing does ({@link LeaseFailure}) when a page cannot be read. */
    public CompletionStage<Count> take() {
        return walk(0, new HashMap<>());
    }

    private CompletionStage<Count> walk(long from, Map<LeaseKey, HolderId> held) {
        return listing.page(KeyPrefix.EVERY_NAMESPACE, from, PAGE).thenCompose(page -> {
            page.leases().forEach(lease -> held.put(lease.key(), lease.holder()));
            if (page.next().isPresent()) {
                return walk(page.next().getAsLong(), held);
            }
            return CompletableFuture.completedFuture(new Count(held.size(), new HashSet<>(held.values()).size()));
        });
    }
}
