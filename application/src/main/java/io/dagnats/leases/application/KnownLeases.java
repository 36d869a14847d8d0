package io.dagnats.leases.application;

import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What this instance last saw of each key, bounded (least recently used go
 * first), and only of one incarnation of the store. A revision names one
 * immutable write <em>of that store</em>, so what is known of revision N stays
 * true; what may be stale is only whether N is still the key's last write. So
 * the memory may only ever <em>propose</em> a compare-and-set write: the store
 * checks it, and any answer the caller sees comes from the store.
 *
 * <p>A revision is that safe only while no other store can hand out the same
 * number again (ADR-026). So the memory belongs to one
 * {@link LeaseStore.Identity}: a new identity forgets everything; an identity
 * whose sequences may repeat an earlier store's is not remembered at all; and a
 * key whose sequence goes back (a leader read sent after revision N was
 * recorded shows a lower, non-zero one) proves the store is not the one
 * remembered, so everything is forgotten.
 */
public final class KnownLeases {

    /** Remembers nothing: every call reads the store first. */
    public static KnownLeases none() {
        return new KnownLeases(0);
    }

    /** What one call starts from: the store's identity, and how far the memory had got. */
    record Ticket(LeaseStore.Identity identity, long stamp) {
    }

    /** A remembered state and when it was recorded, in this memory's own counting. */
    private record Entry(KeyState state, long stamp) {
    }

    private final int capacity;
    private final Map<LeaseKey, Entry> states;
    private LeaseStore.Identity identity = LeaseStore.Identity.NONE;
    private long stamps;

    /** @param capacity keys remembered at most; 0 remembers nothing */
    public KnownLeases(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative");
        }
        this.capacity = capacity;
        this.states = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<LeaseKey, Entry> eldest) {
                return size() > KnownLeases.this.capacity;
            }
        };
    }

    /** Starts a call on the store as it is now; a store with a new identity forgets the old one's keys. */
    synchronized Ticket begin(LeaseStore.Identity current) {
        if (!current.equals(identity)) {
            states.clear();
            identity = current;
        }
        return new Ticket(current, stamps);
    }

    /** Whether this call may propose writes from memory at all. */
    boolean enabled(Ticket ticket) {
        return capacity > 0 && ticket.identity().neverRepeats();
    }

    /** The key as last seen here, if remembered of the call's store. */
    synchronized Optional<KeyState> lastSeen(Ticket ticket, LeaseKey key) {
        if (!enabled(ticket) || !ticket.identity().equals(identity)) {
            return Optional.empty();
        }
        Entry entry = states.get(key);
        return entry == null ? Optional.empty() : Optional.of(entry.state());
    }

    /**
     * Records what a leader read or an applied write of this call showed.
     *
     * @return false when the state contradicts what was remembered before the call began (the
     *         key's sequence went back): then everything is forgotten, and the caller must not
     *         trust the store until it has checked itself again
     */
    synchronized boolean saw(Ticket ticket, KeyState state) {
        if (!enabled(ticket) || !ticket.identity().equals(identity)) {
            return true;
        }
        Entry known = states.get(state.key());
        if (known != null && known.stamp() <= ticket.stamp()) {
            // Remembered before this call asked: the store's answer is newer. Within one store a
            // key's last sequence only grows, or is 0 once its expiry marker has gone.
            if (state.lastSequence() != 0 && state.lastSequence() < known.state().lastSequence()) {
                states.clear();
                return false;
            }
            states.put(state.key(), new Entry(state, ++stamps));
            return true;
        }
        // Not remembered, or recorded by a concurrent call meanwhile: never move a key backwards.
        if (known == null || known.state().lastSequence() <= state.lastSequence()) {
            states.put(state.key(), new Entry(state, ++stamps));
        }
        return true;
    }

    synchronized int size() {
        return states.size();
    }
}
