package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import java.util.Objects;
import java.util.Optional;

/**
 * Who holds a key, as a {@link Following} learnt it: one holder's tenure, or nobody. A tenure is
 * named by the fence it began with, so two reports are the same owner exactly when they are
 * equal; a later owner always has a higher {@code tenure}.
 */
public sealed interface KeyOwner {

    LeaseKey key();

    /**
     * {@code holder} (with its {@code incarnation}, when it sent one) holds the key, in the tenure
     * that began with fence {@code tenure}: its renewals raise the key's revision but keep the
     * tenure, and every fence it sends downstream in this tenure is at or above it.
     */
    record Held(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence tenure) implements KeyOwner {
        public Held {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(incarnation, "incarnation");
            Objects.requireNonNull(tenure, "tenure");
        }

        @Override
        public String toString() {
            return key + " held by " + holder + incarnation.map(value -> " (incarnation " + value + ")").orElse("")
                    + " since fence " + tenure;
        }
    }

    /** Nobody holds the key: it was released, revoked, expired, or never taken. */
    record Free(LeaseKey key) implements KeyOwner {
        public Free {
            Objects.requireNonNull(key, "key");
        }

        @Override
        public String toString() {
            return key + " free";
        }
    }
}
