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
        /**
         * A renew answered {@code lost}: another holder may own the key now. Also when the keeper
         * met an answer it could make no sense of: it cannot vouch for the lease any more.
         */
        LOST,
        /**
         * An operator revoked the lease ({@code api.leases.revoke}, or the key removed with NATS' own
         * tools): the key was taken away on purpose, not lost to a fault of this process or of
         * dagnats, so it is no alarm about this process's health. The keeper steps back a third of
         * the TTL before campaigning again, so a replica waiting for the key takes it. Told when the
         * revoke's change event arrives; a process that misses the event learns it from its next
         * renew, which dagnats answers {@code lost} without saying why, and is told {@link #LOST}.
         */
        REVOKED,
        /** No renew succeeded before the deadline: the key may expire any moment. */
        DEADLINE_PASSED,
        /** The lease was released (on close). */
        RELEASED,
        /**
         * Ownership was given up without a release, because this process may still be acting
         * through a tenure it handed out (a shard's drain that overran its bound): the key stays
         * held, and no other holder is granted it, until its TTL runs out. Also what
         * {@code KeptLease.lastStop()} says, though the listener was told {@link #HANDED_OVER},
         * {@link #RELEASED} or {@link #PREFERRED_CANDIDATE}, when a close was abandoned before it
         * handed over or released: nothing moved, the TTL frees the key. A listener is told once per tenure.
         */
        ABANDONED,
        /**
         * The store went back: it answered with a fence at or below one this process had already
         * confirmed (it came back without writes it had acknowledged: a {@code kill -9} with default
         * sync, a store restored from a copy). Fences only grow in a holder process, so that answer
         * is no tenure, and the deadline of the tenure it ended cannot be trusted either. The holder
         * logs it once, tells dagnats (a renew presenting its highest fence, on which dagnats moves
         * the key's revisions above every earlier one), and campaigns again: it owns the key next
         * under a fence above every one it had.
         */
        STORE_WENT_BACK,
        /**
         * This process handed the lease to a successor it named (on close, or, in a shard set, a shard
         * moved to another member after its drain, ADR-044): it stopped acting as owner, and its tenure's work returned or its bound passed,
         * before the handover was sent. If the successor cannot take it, this process owns the key
         * again after a renew of its own, told {@link OwnershipListener#becameOwner} anew.
         */
        HANDED_OVER,
        /**
         * A strictly better candidate (by the key's {@link Succession}) had waited long enough, and
         * this process had not yielded within the yield interval: it stepped down to hand the lease
         * over, as {@link #HANDED_OVER} does.
         */
        PREFERRED_CANDIDATE
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
    default void becameOwner(Tenure tenure) {
    }

    /**
     * As {@link #becameOwner(Tenure)}, with the handle of the work this tenure starts: it is
     * cancelled the moment ownership ends, and a handover or close waits for it (up to
     * {@link KeepOptions#handoverBound()}) before the lease moves. By default calls
     * {@link #becameOwner(Tenure)}.
     */
    default void becameOwner(Tenure tenure, TenureWork work) {
        becameOwner(tenure);
    }

    /** A renew raised the fence and moved the deadline; send {@code tenure.fence()} downstream from now. */
    default void renewed(Tenure tenure) {
    }

    /** This process no longer owns the key; it has stopped acting as owner already. */
    void stoppedOwning(StopReason reason);
}
