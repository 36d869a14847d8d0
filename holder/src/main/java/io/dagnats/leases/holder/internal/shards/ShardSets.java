package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import io.dagnats.leases.holder.ShardSetOptions;
import io.dagnats.leases.holder.internal.KeyChanges;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The shard sets one holder joined, each with change events of its own; all are left when the
 * holder closes, before its kept leases are released and its threads stop.
 */
public final class ShardSets {

    private final ShardHolder holder;
    private final Connection connection;
    private final MonotonicClock clock;
    private final Claimant self;
    private final List<ShardSet> joined = new CopyOnWriteArrayList<>();

    public ShardSets(ShardHolder holder, Claimant self, Connection connection, MonotonicClock clock) {
        this.holder = holder;
        this.self = self;
        this.connection = connection;
        this.clock = clock;
    }

    /** Joins a set whose shards are attached to this holder's member lease (ADR-043, ADR-044). */
    public ShardSet join(String setName, int shardCount, Duration ttl, Duration drainBound, ShardSetOptions options,
            ShardListener listener) {
        AttachedShardSet set = AttachedShardSet.join(holder, self, new KeyChanges(connection),
                new ShardKeys(setName, shardCount), ttl, drainBound, options, listener, clock);
        joined.add(set);
        set.start();
        return set;
    }

    /** Leaves every shard set, draining and releasing its shards through the holder. */
    public void closeAll() {
        joined.forEach(ShardSet::close);
    }
}
