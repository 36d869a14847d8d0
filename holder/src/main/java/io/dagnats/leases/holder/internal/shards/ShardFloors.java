package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.internal.FenceFloors;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one way a shard becomes owned: through the holder's per-key fence floors ({@link FenceFloors},
 * the ones its keepers use, ADR-043's promise for attached keys). A grant, attach or move-in
 * answered below the highest fence this process ever owned the shard's key at, or at a fence it
 * spent (moved or detached, unless the answer proved nothing was written), is "the store went
 * back" (it came back without writes it had acknowledged): no tenure, so no {@link OwnShard.Owned}
 * is made of it. Said in one log line per key and floor. Loop only.
 *
 * <p>Why equal to the floor is not always the store going back: an attach is idempotent, and a
 * member whose belief ended without any write of the shard (its member's deadline passed while
 * dagnats was slow, a move refused) is granted the very record it owned, unchanged, as the
 * keeper's acquire is (its rule is the same: below the floor, not at it). Only a write of this
 * process may have moved the key past that fence; after one, the same fence again can only be the
 * store having forgotten it.
 */
final class ShardFloors {

    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.ShardSet");

    private final FenceFloors floors;
    private final Map<LeaseKey, Fence> reported = new HashMap<>();
    /** Per key, the fence this process last sent a move or detach of, unless the answer proved it unwritten. */
    private final Map<LeaseKey, Fence> spent = new HashMap<>();

    ShardFloors(FenceFloors floors) {
        this.floors = floors;
    }

    /**
     * Ownership of {@code key} from an attach granted at {@code revision} under {@code memberTenure},
     * heeded at {@code now}, raising the key's floor to it; empty when {@code revision} is at or below
     * the floor.
     */
    Optional<OwnShard.Owned> own(LeaseKey key, Fence revision, Fence memberTenure, long now) {
        Optional<Fence> floor = floors.floor(key).filter(highest -> revision.isBelow(highest)
                || (highest.equals(revision) && revision.equals(spent.get(key))));
        if (floor.isPresent()) {
            if (!floor.equals(Optional.ofNullable(reported.put(key, floor.get())))) {
                LOG.log(System.Logger.Level.WARNING, "shard " + key + ": the store went back: an attach answered fence "
                        + revision + ", which this process had owned it above, or at and moved or detached since (fence "
                        + floor.get() + "); not owning it, detaching it so that it is attached again under a new fence");
            }
            return Optional.empty();
        }
        floors.raise(key, revision);
        spent.remove(key);
        return Optional.of(new OwnShard.Owned(revision, memberTenure, now));
    }

    /** A move or detach of {@code key} at {@code revision} is sent: it may write past that fence. */
    void spend(LeaseKey key, Fence revision) {
        spent.put(key, revision);
    }

    /** The move or detach of {@code key} at {@code revision} was answered as not written. */
    void unspent(LeaseKey key, Fence revision) {
        spent.remove(key, revision);
    }
}
