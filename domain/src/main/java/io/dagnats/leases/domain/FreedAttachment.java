package io.dagnats.leases.domain;

import java.util.Objects;
import java.util.Optional;

/**
 * The {@code freed} event of a key attached to a member tenure that ended (ADR-043): the release
 * form written on the key, compare-and-set on the attached record's revision, so it lands only on
 * that very record (a newer attachment is never touched). The key was free from the member's end by
 * {@link AttachedLiveness}; this write changes no owner, it only tells the key's watchers.
 */
public final class FreedAttachment {

    private FreedAttachment() {
    }

    /**
     * @param memberEndedAt the sequence of a write that ended the member's tenures before it (a release,
     *                      revoke, expiry, or a new acquire of the member key)
     * @return the tombstone, or empty when {@code attached} lives by a tenure that began at or after it
     */
    public static Optional<LeaseWrite.Tombstone> after(AttachedRecord attached, long memberEndedAt) {
        Objects.requireNonNull(attached, "attached");
        if (Long.compareUnsigned(attached.attachment().memberTenure().revision(), memberEndedAt) >= 0) {
            return Optional.empty();
        }
        Claimant holder = attached.claimant();
        // The ended view's expiry says nothing (its member's has passed); a tombstone writes only who and which fence.
        Lease ended = new Lease(attached.key(), holder.holder(), holder.incarnation(), holder.principal(),
                attached.revision(), attached.tenure(), attached.acquiredAt(), attached.acquiredAt(),
                LeaseTtl.ofSeconds(1), Optional.of(attached.attachment()));
        return Optional.of(LeaseWrite.Tombstone.freed(ended, attached.attachment().member()));
    }

    /** The attached record a held lease view of an attached key was judged from. */
    public static Optional<AttachedRecord> recordOf(Lease lease) {
        return lease.attachment().map(attachment -> new AttachedRecord(lease.key(), lease.claimant(),
                lease.revision(), lease.tenure(), lease.acquiredAt(), attachment));
    }

}
