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
     * <p>With an {@code attachment} (an attach or a move, ADR-043) the write carries no TTL: the key
     * lives by the member lease; {@code writtenAt} and {@code ttl} are then the member's, as read
     * when the write was decided, so the lease this write makes shows the member's expiry.
     *
     * @param from the holder whose lease this write replaces, told to watchers (the {@code Dagnats-Lease-From}
     *             header): a handover's ({@link LeaseEvent#HANDED_OVER}, ADR-042, always) or a move's (ADR-043)
     * @param check the check whose yes a handover answers (a header of the write on the wire, ADR-047):
     *              only a handover names one, and a handover written by an older path may name none
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
            Optional<Attachment> attachment,
            Optional<HolderId> from,
            Optional<HandoverCheck> check) implements LeaseWrite {

        public Put {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(event, "event");
            Objects.requireNonNull(claimant, "claimant");
            Objects.requireNonNull(acquiredAt, "acquiredAt");
            Objects.requireNonNull(writtenAt, "writtenAt");
            Objects.requireNonNull(ttl, "ttl");
            Objects.requireNonNull(continuedTenure, "continuedTenure");
            Objects.requireNonNull(attachment, "attachment");
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(check, "check");
            if (event == LeaseEvent.RELEASED || event == LeaseEvent.REVOKED || event == LeaseEvent.FREED
                    || event == LeaseEvent.EXPIRED) {
                throw new IllegalArgumentException("a write that frees the key is a Tombstone, not a Put");
            }
            if (attachment.isPresent() != (event == LeaseEvent.ATTACHED || event == LeaseEvent.MOVED)) {
                throw new IllegalArgumentException("an attach or a move, and only they, write an attachment");
            }
            if (event == LeaseEvent.HANDED_OVER && from.isEmpty()) {
                throw new IllegalArgumentException("a handover names the holder it replaces");
            }
            if (from.isPresent() && event != LeaseEvent.HANDED_OVER && event != LeaseEvent.MOVED) {
                throw new IllegalArgumentException("only a handover or a move names the holder it replaces");
            }
            if (check.isPresent() && event != LeaseEvent.HANDED_OVER) {
                throw new IllegalArgumentException("only a handover answers a successor's yes");
            }
            if (event == LeaseEvent.HANDED_OVER && continuedTenure.isPresent()) {
                throw new IllegalArgumentException("a handover begins the successor's tenure; it continues none");
            }
            claimant.requireInNamespaceOf(key);
        }

        /** A write that answers no successor's yes: every one but a handover's. */
        public Put(LeaseKey key, long expectedSequence, LeaseEvent event, Claimant claimant, Instant acquiredAt,
                Instant writtenAt, LeaseTtl ttl, Optional<Fence> continuedTenure, Optional<Attachment> attachment,
                Optional<HolderId> from) {
            this(key, expectedSequence, event, claimant, acquiredAt, writtenAt, ttl, continuedTenure, attachment, from,
                    Optional.empty());
        }

        /** A plain lease's write: an acquire or a renew, with its own TTL. */
        public Put(LeaseKey key, long expectedSequence, LeaseEvent event, Claimant claimant, Instant acquiredAt,
                Instant writtenAt, LeaseTtl ttl, Optional<Fence> continuedTenure) {
            this(key, expectedSequence, event, claimant, acquiredAt, writtenAt, ttl, continuedTenure,
                    Optional.empty(), Optional.empty());
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
                    continuedTenure.orElse(revision), acquiredAt, writtenAt, ttl, attachment);
        }
    }

    /**
     * Frees the key: a release by its holder, or an operator's revoke when {@code revokeReason}
     * is present. The tombstone itself expires, so freed keys leave nothing that grows.
     *
     * @param ended       the lease this write ends; the write expects its revision as the key's last sequence
     * @param revokedBy   who revoked, when known (ADR-041); only a revoke names one
     * @param endedMember for the {@code freed} event of a key attached to a member lease that ended
     *                    (ADR-043): that member's key; the key was already free by the liveness rule
     */
    record Tombstone(Lease ended, Optional<RevokeReason> revokeReason, Optional<Revoker> revokedBy,
            Optional<LeaseKey> endedMember)
            implements LeaseWrite {
        public Tombstone {
            Objects.requireNonNull(ended, "ended");
            Objects.requireNonNull(revokeReason, "revokeReason");
            Objects.requireNonNull(revokedBy, "revokedBy");
            Objects.requireNonNull(endedMember, "endedMember");
            if (revokedBy.isPresent() && revokeReason.isEmpty()) {
                throw new IllegalArgumentException("a release names no revoker");
            }
            if (revokeReason.isPresent() && endedMember.isPresent()) {
                throw new IllegalArgumentException("a tombstone is a revoke or a freed attachment, not both");
            }
        }

        /** A revoke that names who revoked (ADR-041), when known. */
        public static Tombstone revoke(Lease ended, RevokeReason reason, Optional<Revoker> revokedBy) {
            return new Tombstone(ended, Optional.of(reason), revokedBy, Optional.empty());
        }

        /** The {@code freed} write of a key attached to {@code member}, whose lease ended (ADR-043). */
        public static Tombstone freed(Lease ended, LeaseKey member) {
            return new Tombstone(ended, Optional.empty(), Optional.empty(), Optional.of(member));
        }

        /** A release ({@code revokeReason} empty), or a revoke that names nobody. */
        public Tombstone(Lease ended, Optional<RevokeReason> revokeReason) {
            this(ended, revokeReason, Optional.empty(), Optional.empty());
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
            return revokeReason.isPresent() ? LeaseEvent.REVOKED
                    : endedMember.isPresent() ? LeaseEvent.FREED : LeaseEvent.RELEASED;
        }
    }
}
