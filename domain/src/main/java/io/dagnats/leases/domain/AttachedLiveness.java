package io.dagnats.leases.domain;

import java.util.Optional;

/**
 * The liveness rule of an attached key (ADR-043), the one place it is decided. An attached key is
 * held by the holder its record names, at the key's own revision, until the member lease's expiry,
 * exactly while the member lease is live in the tenure the record names and held by that same
 * holder (holder id, incarnation and principal); otherwise the key is free, at once, with no write.
 *
 * <p>Why it can be derived on every read and never stored: a member tenure that ended never comes
 * back (a tenure is named by the revision that began it, and revisions only grow), so "free" once
 * is free for good at that revision of the key, and a compare-and-set on the key's revision is all a
 * new owner needs. "Held" is re-derived on every read, so it ends when the member ends.
 */
public final class AttachedLiveness {

    private AttachedLiveness() {
    }

    /**
     * @param member the member lease's key as read through the leader (the record's
     *               {@link Attachment#member()}); an attached record there keeps nothing alive
     * @return {@link KeyState.Held} with a lease whose expiry and TTL are the member's, or
     *         {@link KeyState.Free} at the key's revision
     */
    public static KeyState judge(AttachedRecord record, KeyState member) {
        if (!record.attachment().member().equals(member.key())) {
            throw new IllegalArgumentException("judged " + record.key() + " by " + member.key()
                    + ", not by its member " + record.attachment().member());
        }
        if (member instanceof KeyState.Held held && keeps(held.lease(), record)) {
            Lease memberLease = held.lease();
            return new KeyState.Held(new Lease(record.key(), record.claimant().holder(), record.claimant().incarnation(),
                    record.claimant().principal(), record.revision(), record.tenure(), record.acquiredAt(),
                    memberLease.writtenAt(), memberLease.ttl(), Optional.of(record.attachment())));
        }
        return new KeyState.Free(record.key(), record.revision().revision());
    }

    /** Whether {@code member} is the live tenure the record names, held by the record's holder. */
    public static boolean keeps(Lease member, AttachedRecord record) {
        return isMemberTenure(member, record.claimant(), record.attachment().memberTenure());
    }

    /**
     * Whether {@code member} is a plain lease held by {@code holder} in the tenure begun at {@code tenure}:
     * what attach and move require of the member they name, and what keeps an attached key alive.
     */
    public static boolean isMemberTenure(Lease member, Claimant holder, Fence tenure) {
        return member.attachment().isEmpty() && member.isHeldBy(holder) && member.tenure().equals(tenure);
    }
}
