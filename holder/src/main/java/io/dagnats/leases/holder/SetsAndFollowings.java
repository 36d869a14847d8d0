package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

/**
 * What a {@link LeaseHolder} made besides the keys it keeps: the shard sets it joined and the
 * keys it follows, each with its own change events. All are closed when the holder closes,
 * before its kept leases are released and its threads stop.
 */
final class SetsAndFollowings {

    private final LeaseHolder holder;
    private final Connection connection;
    private final LeaseClient client;
    private final Scheduler scheduler;
    private final Executor listeners;
    private final MonotonicClock clock;
    /** The holder's highest confirmed fence per key, which its followings report no owner at or below. */
    private final FenceFloors floors;
    private final List<ShardSet> shardSets = new CopyOnWriteArrayList<>();
    private final Set<Following> followings = ConcurrentHashMap.newKeySet();
    /** The change events of every followed key, on one dispatcher; opened with the first following. */
    private KeyChanges followed;

    SetsAndFollowings(LeaseHolder holder, Connection connection, LeaseClient client, Scheduler scheduler,
            Executor listeners, MonotonicClock clock, FenceFloors floors) {
        this.holder = holder;
        this.connection = connection;
        this.client = client;
        this.scheduler = scheduler;
        this.listeners = listeners;
        this.clock = clock;
        this.floors = floors;
    }

    ShardSet join(String setName, int shardCount, Duration ttl, Duration drainBound, ShardListener listener) {
        ShardSet set = ShardSet.join(holder, new KeyChanges(connection), new ShardKeys(setName, shardCount), ttl,
                drainBound, listener, clock);
        shardSets.add(set);
        set.start();
        return set;
    }

    /** @throws IllegalStateException once the holder is closed */
    Following follow(LeaseKey key, OwnerListener listener) {
        if (scheduler.isShutdown()) {
            throw new IllegalStateException("holder " + holder.id() + " is closed: it follows no key");
        }
        Following following = new Following(Objects.requireNonNull(key, "key"), connection, client, followed(),
                scheduler, listeners, Objects.requireNonNull(listener, "listener"), clock, followings::remove,
                Claimant.of(holder.id(), holder.incarnation()), floors);
        followings.add(following);
        following.start();
        return following;
    }

    private synchronized KeyChanges followed() {
        if (followed == null) {
            followed = new KeyChanges(connection);
            followed.open();
        }
        return followed;
    }

    /** Leaves every shard set (releasing its shards through the holder) and stops every following. */
    void closeAll() {
        shardSets.forEach(ShardSet::close);
        List.copyOf(followings).forEach(Following::close);
        closeFollowed();
    }

    private synchronized void closeFollowed() {
        if (followed != null) {
            followed.close();
        }
    }
}
