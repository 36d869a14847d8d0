package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Tenure;

/**
 * Told when this process starts and stops acting as owner of a key. Called on
 * the holder's own thread, one call at a time and in order; keep it quick. What a
 * listener throws is logged and never stops the lease being kept.
 */
public interface OwnershipListener {

    /** Why this process stopped acting as owner. */
    enum StopReason {
        /** A renew answered {@code lost}: another holder may own the key now. */
        LOST,
        /** No renew succeeded before the deadline: the key may expire any moment. */
        DEADLINE_PASSED,
        /** The lease was released (on close). */
        RELEASED,
        /**
         * Ownership was given up without a release, because this process may still be acting
         * through a tenure it handed out (a shard's drain that overran its bound): the key stays
         * held, and no other holder is granted it, until its TTL runs out.
         */
        ABANDONED
    }

    /** Ignores both. */
    OwnershipListener NONE = new OwnershipListener() {
        @Override
        public void becameOwner(Tenure tenure) {
        }

        @Override
        public void stoppedOwning(StopReason reason) {
        }
    };

    /**
     * This process owns the key from now, under {@code tenure} (its start is the acquire's
     * fence; its fence is that of the renew that confirmed it, the one to send downstream).
     */
    void becameOwner(Tenure tenure);

    /** A renew raised the fence and moved the deadline; send {@code tenure.fence()} downstream from now. */
    default void renewed(Tenure tenure) {
    }

    /** This process no longer owns the key; it has stopped acting as owner already. */
    void stoppedOwning(StopReason reason);
}
