package io.dagnats.leases.holder.internal;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.internal.keeper.StoreWentBack;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per key, the highest fence this process ever had confirmed: the fence of a tenure it owned
 * the key under, raised as a grant's renew or a renewal confirms one. One per
 * {@link LeaseHolder}, for its whole life, shared by its keepers (and so its shard sets) and
 * its followings; a key kept, dropped and kept again keeps its floor.
 *
 * <p>Why: the store's revision is the fence, and a store that comes back without writes it
 * had acknowledged (a {@code kill -9} with default sync, a store dir restored from a copy)
 * hands out revisions again that this process already sent downstream. Fences only grow
 * inside one process: whatever the store answers at or below the floor is "the store went
 * back", never a tenure ({@link StoreWentBack}). One entry per key ever kept or confirmed.
 */
public final class FenceFloors {

    private final Map<LeaseKey, Fence> highest = new ConcurrentHashMap<>();

    /** The highest fence confirmed for {@code key}, or empty when this process never owned it. */
    public Optional<Fence> floor(LeaseKey key) {
        return Optional.ofNullable(highest.get(key));
    }

    /** A tenure under {@code confirmed} was confirmed: the floor of {@code key} is at least that now. */
    public void raise(LeaseKey key, Fence confirmed) {
        highest.merge(key, confirmed, (known, next) -> known.isBelow(next) ? next : known);
    }
}
