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
 * answered at or below the highest fence this process ever owned the shard's key at is "the store
 * went back" (it came back without writes it had acknowledged): no tenure, so no {@link OwnShard.Owned}
 * is made of it. Said in one log line per key and floor. Loop only.
 */
final class ShardFloors {

    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.ShardSet");

    private final FenceFloors floors;
    private final Map<LeaseKey, Fence> reported = new HashMap<>();

    ShardFloors(FenceFloors floors) {
        this.floors = floors;
    }

    /**
     * Ownership of {@code key} from an attach granted at {@code revision} under {@code memberTenure},
     * heeded at {@code now}, raising the key's floor to it; empty when {@code revision} is at or below
     * the floor.
     */
    Optional<OwnShard.Owned> own(LeaseKey key, Fence revision, Fence memberTenure, long now) {
        Optional<Fence> floor = floors.floor(key).filter(highest -> !highest.isBelow(revision));
        if (floor.isPresent()) {
            if (!floor.equals(Optional.ofNullable(reported.put(key, floor.get())))) {
                LOG.log(System.Logger.Level.WARNING, "shard " + key + ": the store went back: an attach answered fence "
                        + revision + ", not above fence " + floor.get() + " this process had owned it at; not owning it,"
                        + " detaching it so that it is attached again under a new fence");
            }
            return Optional.empty();
        }
        floors.raise(key, revision);
        return Optional.of(new OwnShard.Owned(revision, memberTenure, now));
    }
}
