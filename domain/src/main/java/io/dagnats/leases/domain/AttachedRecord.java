package io.dagnats.leases.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * An attached key as stored (ADR-043): who it was attached for, at which fence, to which member
 * tenure. The record alone does not say whether anybody owns the key: that is derived each time
 * from the member's record by {@link AttachedLiveness#judge}, never stored.
 *
 * @param revision the key's own revision: its fence, which changes only when the key is written again
 * @param tenure   the revision of the attach (or move) that began the current holder's tenure of the key
 */
public record AttachedRecord(LeaseKey key, Claimant claimant, Fence revision, Fence tenure, Instant acquiredAt,
        Attachment attachment) {

    public AttachedRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(claimant, "claimant");
        Objects.requireNonNull(revision, "revision");
        Objects.requireNonNull(tenure, "tenure");
        Objects.requireNonNull(acquiredAt, "acquiredAt");
        Objects.requireNonNull(attachment, "attachment");
        if (revision.isBelow(tenure)) {
            throw new IllegalArgumentException("an attached key's revision " + revision + " is below its tenure " + tenure);
        }
        claimant.requireInNamespaceOf(key);
        if (!key.account().equals(attachment.member().account())) {
            throw new IllegalArgumentException("key " + key + " cannot be attached to " + attachment.member()
                    + " of another namespace");
        }
    }
}
