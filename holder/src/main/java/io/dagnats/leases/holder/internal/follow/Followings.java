package io.dagnats.leases.holder.internal.follow;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.holder.OwnerListener;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.KeyChanges;
import io.dagnats.leases.holder.internal.Scheduler;
import io.nats.client.Connection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * The keys one holder follows, on one change-event dispatcher opened with the first following;
 * all are stopped when the holder closes, before its kept leases are released and its threads stop.
 */
public final class Followings {

    private final Claimant self;
    private final Connection connection;
    private final LeaseClient client;
    private final Scheduler scheduler;
    private final Executor listeners;
    private final MonotonicClock clock;
    /** The holder's highest confirmed fence per key, which its followings report no owner at or below. */
    private final FenceFloors floors;
    private final Set<KeyFollowing> followings = ConcurrentHashMap.newKeySet();
    /** The change events of every followed key, on one dispatcher; opened with the first following. Guarded by this. */
    private KeyChanges followed;
    /** Set by {@link #closeAll}: no following starts after it, so none is left that nothing closes. Guarded by this. */
    private boolean closed;

    /** @param self the holder's claimant, whose own record at a floor is the write it confirmed */
    public Followings(Claimant self, Connection connection, LeaseClient client, Scheduler scheduler,
            Executor listeners, MonotonicClock clock, FenceFloors floors) {
        this.self = self;
        this.connection = connection;
        this.client = client;
        this.scheduler = scheduler;
        this.listeners = listeners;
        this.clock = clock;
        this.floors = floors;
    }

    /**
     * Starts following {@code key}. Made and started under the same lock {@link #closeAll} takes,
     * so a follow racing the holder's close either ends before the close looks, and is closed by
     * it, or comes after and is refused: it never opens a dispatcher or subscription left open.
     *
     * @throws IllegalStateException once the holder is closed
     */
    public synchronized KeyFollowing follow(LeaseKey key, OwnerListener listener) {
        if (closed || scheduler.isShutdown()) {
            throw new IllegalStateException("holder " + self.holder() + " is closed: it follows no key");
        }
        KeyFollowing following = new KeyFollowing(Objects.requireNonNull(key, "key"), connection, client, followed(),
                scheduler, listeners, Objects.requireNonNull(listener, "listener"), clock, followings::remove,
                self, floors);
        followings.add(following);
        following.start();
        return following;
    }

    private KeyChanges followed() {
        if (followed == null) {
            followed = new KeyChanges(connection);
            followed.open();
        }
        return followed;
    }

    /** Stops every following, then their dispatcher; any follow after this is refused. */
    public void closeAll() {
        synchronized (this) {
            closed = true;
        }
        List.copyOf(followings).forEach(KeyFollowing::close);
        closeFollowed();
    }

    private synchronized void closeFollowed() {
        if (followed != null) {
            followed.close();
        }
    }
}
