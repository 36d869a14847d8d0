package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.internal.shards.ShardKeys;
import java.util.Optional;
import java.util.Set;

/**
 * This process's place in a shard set: M shards spread over the live replicas of the set, each
 * owning ⌈M/N⌉ or ⌊M/N⌋ of them. Made by {@link LeaseHolder#shards}:
 * {@code holder.shards("orders", 12, ttl, listener).tenure(7).ifPresent(t -> store.write(record, t.fence()))}.
 *
 * <p>Every shard is a lease ({@code <set>-shard-<i>}) kept through the holder, so ownership
 * follows the tenure rule and nothing else: the set only chooses which shard keys to keep.
 * Membership is a lease too ({@code <set>-member-<holder id>}, held by that holder). A shard
 * given to another replica is drained first ({@link ShardListener}), for at most its drain bound,
 * then released.
 */
public interface ShardSet extends AutoCloseable {

    String name();

    int shardCount();

    /** The shards this process acts as owner of right now. */
    Set<Integer> owned();

    /** The tenure of {@code shard} while this process acts as its owner; ask right before acting. */
    Optional<Tenure> tenure(int shard);

    /** The lease key of {@code shard}, as the service and operators see it. */
    String shardKey(int shard);

    /**
     * Leaves the set: releases the member lease, stops campaigning, then drains and
     * releases every shard owned. A second close, from any thread, waits for the first
     * to finish, so a holder closed meanwhile never releases a shard still being drained.
     * An interrupt does not cut the drains short: it is kept for the caller afterwards.
     */
    void close();

    /** The lease key of {@code shard} in the set named {@code set}: {@code <set>-shard-<shard>}. */
    static String shardKey(String set, int shard) {
        return new ShardKeys(set, shard + 1).shard(shard).value();
    }
}
