package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.keeper.KeptLeaseHandle;
import java.time.Duration;
import java.util.Objects;

/**
 * What a shard set needs of the holder that joined it, and no more: who it is, its calls, and a
 * way to keep a key. A narrow value instead of the holder itself, so that the holder knows its
 * shard sets and they do not know it back.
 *
 * @param id     the holder id the set's member and shard leases are kept as
 * @param client the holder's calls, for the listings that show the set's members
 * @param keeper keeps a key through the holder's keeper, as {@link LeaseHolder#keep} does
 * @param floors the highest fence the holder ever owned each key at, which its keepers use too:
 *               a shard is never owned again at or below it
 */
public record ShardHolder(HolderId id, LeaseClient client, Keeper keeper, FenceFloors floors) {

    public ShardHolder {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(keeper, "keeper");
        Objects.requireNonNull(floors, "floors");
    }

    /** Keeps {@code key} as the holder does, handing back the handle a set may also abandon. */
    @FunctionalInterface
    public interface Keeper {
        KeptLeaseHandle keep(String key, Duration ttl, OwnershipListener listener);
    }

    KeptLeaseHandle keep(String key, Duration ttl, OwnershipListener listener) {
        return keeper.keep(key, ttl, listener);
    }
}
