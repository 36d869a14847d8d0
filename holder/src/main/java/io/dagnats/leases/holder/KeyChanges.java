package io.dagnats.leases.holder;

import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Subscription;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The change events ({@link LeaseSubjects#changed}) of the keys a holder keeps:
 * one subscription per key on one shared dispatcher, each waking that key's
 * keeper so it campaigns as soon as the key is freed. Events are at most once;
 * a keeper also wakes by itself near the holder's expiry, so a lost one only
 * delays it.
 */
final class KeyChanges {

    private final Connection connection;
    private final Map<LeaseKey, Subscription> subscriptions = new ConcurrentHashMap<>();
    private volatile Dispatcher changes;

    KeyChanges(Connection connection) {
        this.connection = connection;
    }

    /** Opens the dispatcher the subscriptions share. Called once, before the first {@link #follow}. */
    void open() {
        changes = connection.createDispatcher();
    }

    /** Calls {@code changed} on each change event of {@code key}, from now until {@link #unfollow}. */
    void follow(LeaseKey key, Runnable changed) {
        subscriptions.put(key, changes.subscribe(LeaseSubjects.changed(key), event -> changed.run()));
    }

    /** No more change events of {@code key}. */
    void unfollow(LeaseKey key) {
        Subscription subscription = subscriptions.remove(key);
        if (subscription != null && changes.isActive()) {
            changes.unsubscribe(subscription);
        }
    }

    /** Ends every subscription; does nothing once the connection is closed. */
    void close() {
        Dispatcher dispatcher = changes;
        if (dispatcher != null && connection.getStatus() != Connection.Status.CLOSED) {
            connection.closeDispatcher(dispatcher);
        }
    }
}
