package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Who holds each watched key, as far as the watch knows: the listing taken
 * when it began, then every event since. The server's expiry marker names no
 * holder; this is what lets the watch say whose lease expired.
 *
 * <p>A key the listing did not show was free when the watch began, so a
 * marker for it ends no lease: a release's tombstone expiring, or a marker
 * expiring itself. When there was no listing, such a key is unknown, not free.
 */
final class KnownHolders {

    /** The last write seen of a key: held by {@code holder} under {@code fence}, or free. */
    private record Last(long sequence, Optional<HolderId> holder, Optional<Fence> fence) {
    }

    private final Map<LeaseKey, Last> byKey = new HashMap<>();
    private final boolean listed;

    /** @param listed whether the watch began with a listing of every watched key that was held */
    KnownHolders(boolean listed) {
        this.listed = listed;
    }

    void held(LeaseView lease) {
        remember(lease.key(), new Last(lease.revision().revision(), Optional.of(lease.holder()),
                Optional.of(lease.revision())));
    }

    /**
     * The change as the watch reports it, and what it teaches: an expiry gets the
     * holder and fence of the lease that ended.
     *
     * @return empty for an expiry that ended no lease (the key was already free)
     */
    Optional<LeaseChange> explain(LeaseChange change) {
        Last before = byKey.get(change.key());
        switch (change.kind()) {
            case ACQUIRED, RENEWED, ATTACHED, MOVED, HANDED_OVER -> remember(change.key(), new Last(change.sequence(), change.holder(), change.fence()));
            case RELEASED, REVOKED, EXPIRED, FREED -> remember(change.key(), new Last(change.sequence(), Optional.empty(),
                    Optional.empty()));
        }
        // dagnats' own expiry of a lease the store forgot (ADR-035) names the lease it ended already.
        if (change.kind() != LeaseChange.Kind.EXPIRED || change.holder().isPresent()) {
            return Optional.of(change);
        }
        if (before == null) {
            return listed ? Optional.empty() : Optional.of(change);
        }
        if (before.holder().isEmpty() || before.sequence() > change.sequence()) {
            return Optional.empty();
        }
        return Optional.of(change.whoseLease(before.holder().get(), before.fence().get()));
    }

    /** Keeps the later of two writes: events and the listing may arrive in either order. */
    private void remember(LeaseKey key, Last last) {
        byKey.merge(key, last, (old, update) -> update.sequence() >= old.sequence() ? update : old);
    }
}
