package io.dagnats.leases.domain;

/**
 * What the lease store holds for one key, read through the stream leader.
 * Every state carries the subject's last sequence, which the next write
 * compares against.
 */
public sealed interface KeyState {

    LeaseKey key();

    /** The sequence the next compare-and-set write must expect; 0 when the key was never written. */
    long lastSequence();

    /** Nobody holds the key: never written, released, or expired by the server's TTL. */
    record Free(LeaseKey key, long lastSequence) implements KeyState {
        public Free {
            if (lastSequence < 0) {
                throw new IllegalArgumentException("a sequence is never negative");
            }
        }
    }

    /** Somebody holds the key. */
    record Held(Lease lease) implements KeyState {
        @Override
        public LeaseKey key() {
            return lease.key();
        }

        @Override
        public long lastSequence() {
            return lease.revision().revision();
        }
    }
}
