package io.dagnats.leases.application;

import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What this instance last saw of each key, bounded (least recently used go
 * first). A revision names one immutable write, so what is known of revision N
 * stays true; what may be stale is only whether N is still the key's last
 * write. So the memory may only ever <em>propose</em> a compare-and-set write:
 * the store checks it, and any answer the caller sees comes from the store.
 */
public final class KnownLeases {

    /** Remembers nothing: every call reads the store first. */
    public static KnownLeases none() {
        return new KnownLeases(0);
    }

    private final int capacity;
    private final Map<LeaseKey, KeyState> states;

    /** @param capacity keys remembered at most; 0 remembers nothing */
    public KnownLeases(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative");
        }
        this.capacity = capacity;
        this.states = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<LeaseKey, KeyState> eldest) {
                return size() > KnownLeases.this.capacity;
            }
        };
    }

    /** Whether this memory remembers anything at all. */
    boolean enabled() {
        return capacity > 0;
    }

    /** The key as last seen here, if remembered. */
    synchronized Optional<KeyState> lastSeen(LeaseKey key) {
        return capacity == 0 ? Optional.empty() : Optional.ofNullable(states.get(key));
    }

    /** Records what a leader read or an applied write showed. Never moves a key backwards. */
    synchronized void saw(KeyState state) {
        if (capacity == 0) {
            return;
        }
        KeyState known = states.get(state.key());
        if (known == null || known.lastSequence() <= state.lastSequence()) {
            states.put(state.key(), state);
        }
    }

    /** Forgets a key whose remembered state a write just proved stale. */
    synchronized void forget(LeaseKey key) {
        states.remove(key);
    }

    synchronized int size() {
        return states.size();
    }
}
