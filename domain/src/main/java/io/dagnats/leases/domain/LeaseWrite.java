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

    /** The holder whose lease this write makes, extends or ends. */
    HolderId holder();

    /** That holder's incarnation, when it has one. */
    Optional<Incarnation> incarnation();

    LeaseEvent event();

    /**
     * Makes or extends a holder's lease; the server frees the key {@code ttl} after the write.
     * {@code writtenAt} is the writer's clock when it decided, at or before the server's
     * own stamp, so the advisory expiry derived from it errs early, never late.
     *
     * @param handedOverBy for a handover ({@link LeaseEvent#HANDED_OVER}, and only then): the holder
     *                     whose lease it replaces, which the record names in its event (ADR-042)
     */
    record Put(
            LeaseKey key,
            long expectedSequence,
            LeaseEvent event,
            Claimant claimant,
            Instant acquiredAt,
            Instant writtenAt,
            LeaseTtl ttl,
            Optional<Fence> continuedTenure,
            Optional<HolderId> handedOverBy) implements LeaseWrite {

        /** An acquire or renew: no handover. */
        public Put(LeaseKey key, long expectedSequence, LeaseEvent event, Claimant claimant, Instant acquiredAt,
                Instant writtenAt, LeaseTtl ttl, Optional<Fence> continuedTenure) {
            this(key, expectedSequence, event, claimant, acquiredAt, writtenAt, ttl, continuedTenure,
                    Optional.empty());
        }

        public Put {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(event, "event");
            Objects.requireNonNull(claimant, "claimant");
            Objects.requireNonNull(acquiredAt, "acquiredAt");
            Objects.requireNonNull(writtenAt, "writtenAt");
            Objects.requireNonNull(ttl, "ttl");
            Objects.requireNonNull(continuedTenure, "continuedTenure");
            Objects.requireNonNull(handedOverBy, "handedOverBy");
            if ((event == LeaseEvent.HANDED_OVER) != handedOverBy.isPresent()) {
                throw new IllegalArgumentException("a handover, and only a handover, names the holder it replaces");
            }
            if (event == LeaseEvent.HANDED_OVER && continuedTenure.isPresent()) {
                throw new IllegalArgumentException("a handover begins the successor's tenure; it continues none");
            }
            if (event == LeaseEvent.RELEASED || event == LeaseEvent.REVOKED) {
                throw new IllegalArgumentException("a release or revoke is a Tombstone, not a Put");
            }
            claimant.requireInNamespaceOf(key);
        }

        @Override
        public HolderId holder() {
            return claimant.holder();
        }

        @Override
        public Optional<Incarnation> incarnation() {
            return claimant.incarnation();
        }

        /** The lease this write makes once the store gives it {@code revision}. */
        public Lease leaseAt(Fence revision) {
            return new Lease(key, claimant.holder(), claimant.incarnation(), claimant.principal(), revision,
                    continuedTenure.orElse(revision), acquiredAt, writtenAt, ttl);
        }
    }

    /**
     * Frees the key: a release by its holder, or an operator's revoke when {@code revokeReason}
     * is present. The tombstone itself expires, so freed keys leave nothing that grows.
     *
     * @param ended     the lease this write ends; the write expects its revision as the key's last sequence
     * @param revokedBy who revoked, when known (ADR-041); only a revoke names one
     */
    record Tombstone(Lease ended, Optional<RevokeReason> revokeReason, Optional<Revoker> revokedBy)
            implements LeaseWrite {
        public Tombstone {
            Objects.requireNonNull(ended, "ended");
            Objects.requireNonNull(revokeReason, "revokeReason");
            Objects.requireNonNull(revokedBy, "revokedBy");
            if (revokedBy.isPresent() && revokeReason.isEmpty()) {
                throw new IllegalArgumentException("a release names no revoker");
            }
        }

        /** A release ({@code revokeReason} empty), or a revoke that names nobody. */
        public Tombstone(Lease ended, Optional<RevokeReason> revokeReason) {
            this(ended, revokeReason, Optional.empty());
        }

        @Override
        public LeaseKey key() {
            return ended.key();
        }

        @Override
        public long expectedSequence() {
            return ended.revision().revision();
        }

        /** The holder whose lease this write ends. */
        @Override
        public HolderId holder() {
            return ended.holder();
        }

        @Override
        public Optional<Incarnation> incarnation() {
            return ended.incarnation();
        }

        /** The fence of the lease this write ends. */
        public Fence endedFence() {
            return ended.revision();
        }

        @Override
        public LeaseEvent event() {
            return revokeReason.isPresent() ? LeaseEvent.REVOKED : LeaseEvent.RELEASED;
        }
    }
}
