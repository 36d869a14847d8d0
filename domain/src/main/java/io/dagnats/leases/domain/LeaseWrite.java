package io.dagnats.leases.domain;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One compare-and-set write the rules ask for: it applies only while the key's
 * last sequence is still {@link #expectedSequence()}, which is what stops two
 * writers from both being granted a key.
 */
public sealed interface LeaseWrite {

    LeaseKey key();

    long expectedSequence();

    HolderId holder();

    LeaseEvent event();

    /**
     * Makes or extends a holder's lease; the server frees the key {@code ttl} after the write.
     * {@code writtenAt} is the writer's clock when it decided, at or before the server's
     * own stamp, so the advisory expiry derived from it errs early, never late.
     */
    record Put(
            LeaseKey key,
            long expectedSequence,
            LeaseEvent event,
            HolderId holder,
            Instant acquiredAt,
            Instant writtenAt,
            LeaseTtl ttl,
            Optional<Fence> continuedTenure) implements LeaseWrite {

        public Put {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(event, "event");
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(acquiredAt, "acquiredAt");
            Objects.requireNonNull(writtenAt, "writtenAt");
            Objects.requireNonNull(ttl, "ttl");
            Objects.requireNonNull(continuedTenure, "continuedTenure");
            if (event == LeaseEvent.RELEASED) {
                throw new IllegalArgumentException("a release is a Tombstone, not a Put");
            }
        }

        /** The lease this write makes once the store gives it {@code revision}. */
        public Lease leaseAt(Fence revision) {
            return new Lease(key, holder, revision, continuedTenure.orElse(revision), acquiredAt, writtenAt, ttl);
        }
    }

    /** Frees the key. The tombstone itself expires, so released keys leave nothing that grows. */
    record Tombstone(LeaseKey key, long expectedSequence, HolderId holder) implements LeaseWrite {
        public Tombstone {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(holder, "holder");
        }

        @Override
        public LeaseEvent event() {
            return LeaseEvent.RELEASED;
        }
    }
}
