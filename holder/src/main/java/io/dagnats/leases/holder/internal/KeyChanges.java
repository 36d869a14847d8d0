package io.dagnats.leases.holder.internal;

import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.Subscription;
import io.nats.client.impl.Headers;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The change events ({@link LeaseSubjects#changed}) of the keys a holder keeps:
 * one subscription per key on one shared dispatcher, each telling that key's
 * keeper: a waiter campaigns as soon as the key is freed (released, revoked,
 * expired; never on an acquire or renewal), an owner stops at once when its
 * lease ended (an operator's revoke). Events are at most once; a waiter also
 * wakes by itself just after the holder's expiry, and an owner learns at its
 * next renew, so a lost one only delays them.
 */
public final class KeyChanges {

    private final Connection connection;
    private final Map<LeaseKey, Subscription> subscriptions = new ConcurrentHashMap<>();
    private volatile Dispatcher changes;

    public KeyChanges(Connection connection) {
        this.connection = connection;
    }

    /** Opens the dispatcher the subscriptions share. Called once, before the first {@link #follow}. */
    public void open() {
        changes = connection.createDispatcher();
    }

    /**
     * Calls {@code changed} with each change event of {@code key}, from now until
     * {@link #unfollow}; with empty for a message that is no event of the
     * contract (the keeper ignores it: its fallback wake-up covers a lost event).
     */
    public void follow(LeaseKey key, Consumer<Optional<LeaseChange>> changed) {
        subscriptions.put(key, subscribe(key, changed));
    }

    /** As {@link #follow}, for one of several subscribers to the same key: ended by {@link #unsubscribe}. */
    public Subscription subscribe(LeaseKey key, Consumer<Optional<LeaseChange>> changed) {
        return changes.subscribe(LeaseSubjects.changed(key),
                event -> changed.accept(LeaseChange.read(event.getSubject(), headerOf(event), Instant.now())));
    }

    public void unsubscribe(Subscription subscription) {
        if (changes.isActive()) {
            changes.unsubscribe(subscription);
        }
    }

    private static Function<String, String> headerOf(Message event) {
        Headers headers = event.getHeaders();
        return headers == null ? name -> null : headers::getFirst;
    }

    /** How many messages the subscriptions dropped so far, as a slow consumer: each may have been any key's event. */
    public long dropped() {
        Dispatcher dispatcher = changes;
        return dispatcher == null ? 0 : dispatcher.getDroppedCount();
    }

    /** No more change events of {@code key}. */
    public void unfollow(LeaseKey key) {
        Subscription subscription = subscriptions.remove(key);
        if (subscription != null) {
            unsubscribe(subscription);
        }
    }

    /** Ends every subscription; does nothing once the connection is closed. */
    public void close() {
        Dispatcher dispatcher = changes;
        if (dispatcher != null && connection.getStatus() != Connection.Status.CLOSED) {
            connection.closeDispatcher(dispatcher);
        }
    }
}
