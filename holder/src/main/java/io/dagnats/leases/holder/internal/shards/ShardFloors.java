package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.internal.FenceFloors;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one way a shard becomes owned: through the holder's per-key fence floors ({@link FenceFloors},
 * the ones its keepers use, ADR-043's promise for attached keys). A grant, attach or move-in is
 * refused, no tenure and so no {@link OwnShard.Owned} made of it, when answered
 * <ul>
 * <li>below the highest fence this process ever owned the shard's key at;</li>
 * <li>below the highest revision this process saw the key written at, by anyone, or at it when that
 * write did not hold it here, for this process by its holder id and incarnation (revoked, freed, moved
 * or attached by another, another process under the same id included): revisions only grow, so
 * such a grant is the store having come back without that write. The holder's floors keep it, as
 * its keepers' rules use it too ({@link FenceFloors#written}). The highest write seen, not only
 * the last write of each fold: events folded in one batch keep a key's last write only, and a
 * revoke and another's attach folded under a later write (a move here) are below it;</li>
 * <li>or at a fence it spent: drained (from the drain's start, whatever becomes of the member's belief:
 * the drain may still act at that fence), moved or detached, unless the drain returned in time and
 * the answer proved nothing was written; or abandoned to a drain that overran.</li>
 * </ul>
 * Said in one log line per key and refused fence. Loop only.
 *
 * <p>Why the very fence it owned may be granted again: an attach is idempotent, and a member whose
 * belief ended while no write of the shard was seen or sent (its member's deadline passed while
 * dagnats was slow, a move refused) is granted the very record it owned, unchanged, as the keeper's
 * acquire is (its rule is the same: below the floor, not at it). Belief ended by someone else's
 * write is not that case: "no write by this process" is not "no write by anyone".
 */
final class ShardFloors {

    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.ShardSet");

    private final FenceFloors floors;
    private final Map<LeaseKey, Fence> reported = new HashMap<>();
    /** Per key, the fence this process last moved, detached or abandoned, unless an answer proved it unwritten. */
    private final Map<LeaseKey, Fence> spent = new HashMap<>();

    ShardFloors(FenceFloors floors) {
        this.floors = floors;
    }

    /**
     * Ownership of {@code key} from an attach granted at {@code revision} under {@code memberTenure},
     * heeded at {@code now}, raising the key's floor to it; empty when refused (see the class).
     */
    Optional<OwnShard.Owned> own(LeaseKey key, Fence revision, Fence memberTenure, long now) {
        Optional<String> refused = refusal(key, revision);
        if (refused.isPresent()) {
            if (!revision.equals(reported.put(key, revision))) {
                LOG.log(System.Logger.Level.WARNING, "shard " + key + ": an attach answered fence " + revision + ", "
                        + refused.get() + "; not owning it, detaching it so that it is attached again under a new fence");
            }
            return Optional.empty();
        }
        floors.raise(key, revision);
        spent.remove(key);
        return Optional.of(new OwnShard.Owned(revision, memberTenure, now));
    }

    private Optional<String> refusal(LeaseKey key, Fence revision) {
        Optional<Fence> floor = floors.grantFloor(key).filter(revision::isBelow);
        if (floor.isPresent()) {
            return Optional.of("below fence " + floor.get() + " (the highest this process owned it at or saw it written"
                    + " at, above another's write): the store went back");
        }
        if (revision.equals(spent.get(key))) {
            return Optional.of("which this process moved, detached or abandoned to an overrun drain since it owned it"
                    + " there: the store went back, or the abandoned drain may still act at it");
        }
        return Optional.empty();
    }

    /**
     * The key was seen written at {@code revision} (an event or a listing), holding it here or not
     * ({@code here}): no later grant below it is a tenure, nor one at it unless that write held it here.
     */
    void written(LeaseKey key, Fence revision, boolean here) {
        floors.written(key, revision, here);
    }

    /**
     * A drain of {@code key} at {@code revision} starts or was abandoned (it may act at that fence), or
     * a move or detach of it is sent (it may write past that fence).
     */
    void spend(LeaseKey key, Fence revision) {
        spent.put(key, revision);
    }

    /** The move or detach of {@code key} at {@code revision} was answered as not written. */
    void unspent(LeaseKey key, Fence revision) {
        spent.remove(key, revision);
    }
}
