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
 * remembered, so everything is forgotten. An answer naming another write at a
 * remembered revision proves the store repeats revisions (a bucket recreated from
 * a copy of its own configuration): everything is forgotten, and nothing is
 * remembered of that store identity again (ADR-035).
 */
public final class KnownLeases {

    /** Remembers nothing: every call reads the store first. */
    public static KnownLeases none() {
        return new KnownLeases(0);
    }

    /** What one call starts from: the store's identity, and how far the memory had got. */
    record Ticket(LeaseStore.Identity identity, long stamp) {
    }

    /**
     * What everything remembered stands on: one store identity, up to the memory's next forgetting.
     * Memory kept elsewhere of that store's revisions (dagnats' index of attached keys, ADR-043)
     * names the era it was learnt in, and proposes a write only while the era is the same and
     * {@link #revisionsHold} (see {@link LeaseWriter#mayProposeFrom}).
     */
    public record Era(LeaseStore.Identity identity, long forgets) {
    }

    /** A remembered state and when it was recorded, in this memory's own counting. */
    private record Entry(KeyState state, long stamp) {
    }

    /** What one answer of the store showed of the memory. */
    enum Sight {
        /** Nothing contradicts what was remembered (or nothing was). */
        CONSISTENT,
        /**
         * A key's sequence went back: another store answered (ADR-026). Everything is forgotten,
         * and the store must be judged again before it is trusted.
         */
        WENT_BACK,
        /**
         * Another write at a revision remembered (another holder, incarnation, acquired_at or
         * tenure, or a lease where a release was): the store hands out revisions again, as a bucket
         * recreated from a copy of its own configuration does (ADR-035). Everything is forgotten and
         * nothing more is remembered of this store identity; the answer itself is a true read of the
         * store as it is now, and is decided from like any read of a bucket without memory.
         */
        REUSED
    }

    private final int capacity;
    private final Map<LeaseKey, Entry> states;
    private LeaseStore.Identity identity = LeaseStore.Identity.NONE;
    /** A store identity an answer proved to repeat revisions: nothing is remembered of it again. */
    private LeaseStore.Identity distrusted = LeaseStore.Identity.NONE;
    private long stamps;
    /** How often everything was forgotten: each time ends an {@link Era}. */
    private long forgets;

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
            clear();
            identity = current;
        }
        return new Ticket(current, stamps);
    }

    /** Whether this call may propose writes from memory at all. */
    synchronized boolean enabled(Ticket ticket) {
        return capacity > 0 && revisionsHold(ticket);
    }

    /**
     * Whether the call's store may be trusted never to hand out a revision again, to another write:
     * its identity claims so and no answer proved otherwise. Whatever the memory's capacity.
     */
    synchronized boolean revisionsHold(Ticket ticket) {
        return ticket.identity().neverRepeats() && !ticket.identity().equals(distrusted);
    }

    /** The era the call began in. */
    synchronized Era era(Ticket ticket) {
        return new Era(ticket.identity(), ticket.identity().equals(identity) ? forgets : -1);
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
     * @return {@link Sight#WENT_BACK} when the state contradicts what was remembered before the call
     *         began (the key's sequence went back): then everything is forgotten, and the caller must
     *         not trust the store until it has checked itself again; {@link Sight#REUSED} when it
     *         names another write at a remembered revision: then everything is forgotten for good
     */
    synchronized Sight saw(Ticket ticket, KeyState state) {
        return look(ticket, state, true);
    }

    /** Checks what a read showed (an owner query) against the memory, without remembering it. */
    synchronized Sight checked(Ticket ticket, KeyState state) {
        return look(ticket, state, false);
    }

    private Sight look(Ticket ticket, KeyState state, boolean remember) {
        if (!enabled(ticket) || !ticket.identity().equals(identity)) {
            return Sight.CONSISTENT;
        }
        Entry known = states.get(state.key());
        if (known != null && state.lastSequence() != 0 && state.lastSequence() == known.state().lastSequence()
                && !sameWrite(known.state(), state)) {
            // A revision names one write of a store; two writes under one number mean it repeats them,
            // and any compare-and-set proposed from memory could land on another holder's lease.
            clear();
            distrusted = identity;
            return Sight.REUSED;
        }
        if (known != null && known.stamp() <= ticket.stamp()) {
            // Remembered before this call asked: the store's answer is newer. Within one store a
            // key's last sequence only grows, or is 0 once its expiry marker has gone.
            if (state.lastSequence() != 0 && state.lastSequence() < known.state().lastSequence()) {
                clear();
                return Sight.WENT_BACK;
            }
            if (remember) {
                states.put(state.key(), new Entry(state, ++stamps));
            }
            return Sight.CONSISTENT;
        }
        // Not remembered, or recorded by a concurrent call meanwhile: never move a key backwards.
        if (remember && (known == null || known.state().lastSequence() <= state.lastSequence())) {
            states.put(state.key(), new Entry(state, ++stamps));
        }
        return Sight.CONSISTENT;
    }

    /**
     * Whether two states at one revision can be the same write: the same holder, incarnation,
     * acquire time and tenure for a lease; any two frees. A free answer where a lease was remembered
     * is not taken for proof: it is what a lease the store forgot to expire reads as when its removal
     * did not apply (ADR-035), at that lease's own revision.
     */
    private static boolean sameWrite(KeyState remembered, KeyState answered) {
        if (remembered instanceof KeyState.Held was && answered instanceof KeyState.Held is) {
            return was.lease().claimant().equals(is.lease().claimant())
                    && was.lease().acquiredAt().equals(is.lease().acquiredAt())
                    && was.lease().tenure().equals(is.lease().tenure());
        }
        return !(remembered instanceof KeyState.Free && answered instanceof KeyState.Held);
    }

    /**
     * Forgets every key: the store proved it went back below revisions it issued (ADR-037), so it
     * may issue remembered revisions again, to other writes, until it has skipped above them.
     */
    synchronized void forget() {
        clear();
    }

    private void clear() {
        states.clear();
        forgets++;
    }

    synchronized int size() {
        return states.size();
    }
}
