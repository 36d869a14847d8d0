package io.dagnats.leases.domain;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A key that one holder owns, as of one write.
 *
 * @param incarnation the holder's incarnation, when it sent one: part of who holds the lease
 * @param principal  who the NATS server said took it, in identity mode (ADR-036): part of who
 *                   holds the lease, and always in the key's account
 * @param revision   the fence of the write this view comes from
 * @param tenure     the fence of the acquire that began this holder's tenure; renewals
 *                   raise {@code revision} but keep the tenure
 * @param acquiredAt when the tenure began; it does not move on renew
 * @param writtenAt  when the write behind {@code revision} was made
 * @param ttl        how long after {@code writtenAt} the server frees the key; for an attached key
 *                   (ADR-043) both are its member lease's, so {@link #expiresAt()} is the member's
 * @param attachment present for a key attached to a member lease: it lives by that lease, not by
 *                   a TTL of its own ({@link AttachedLiveness})
 */
public record Lease(
        LeaseKey key,
        HolderId holder,
        Optional<Incarnation> incarnation,
        Optional<Principal> principal,
        Fence revision,
        Fence tenure,
        Instant acquiredAt,
        Instant writtenAt,
        LeaseTtl ttl,
        Optional<Attachment> attachment) {

    public Lease {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(incarnation, "incarnation");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(revision, "revision");
        Objects.requireNonNull(tenure, "tenure");
        Objects.requireNonNull(acquiredAt, "acquiredAt");
        Objects.requireNonNull(writtenAt, "writtenAt");
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(attachment, "attachment");
        if (revision.isBelow(tenure)) {
            throw new IllegalArgumentException("a lease's revision " + revision + " is below its tenure " + tenure);
        }
        new Claimant(holder, incarnation, principal).requireInNamespaceOf(key);
    }

    /** A plain lease (no attachment): it lives by its own TTL. */
    public Lease(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Optional<Principal> principal,
            Fence revision, Fence tenure, Instant acquiredAt, Instant writtenAt, LeaseTtl ttl) {
        this(key, holder, incarnation, principal, revision, tenure, acquiredAt, writtenAt, ttl, Optional.empty());
    }

    /** Whether the key lives by a member lease (ADR-043) rather than by a TTL of its own. */
    public boolean isAttached() {
        return attachment.isPresent();
    }

    /** A lease of the shared namespace (identity mode off): no principal. */
    public Lease(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence revision, Fence tenure,
            Instant acquiredAt, Instant writtenAt, LeaseTtl ttl) {
        this(key, holder, incarnation, Optional.empty(), revision, tenure, acquiredAt, writtenAt, ttl);
    }

    /** A lease of a holder that sent no incarnation: the guide's plain holder. */
    public Lease(LeaseKey key, HolderId holder, Fence revision, Fence tenure, Instant acquiredAt, Instant writtenAt,
            LeaseTtl ttl) {
        this(key, holder, Optional.empty(), Optional.empty(), revision, tenure, acquiredAt, writtenAt, ttl);
    }

    /** Who holds it: the holder id, its incarnation if it sent one, and its principal in identity mode. */
    public Claimant claimant() {
        return new Claimant(holder, incarnation, principal);
    }

    /** Advisory: the server's TTL, not this instant, is what frees the key. */
    public Instant expiresAt() {
        return writtenAt.plusMillis(ttl.millis());
    }

    /**
     * Whether {@code candidate} holds it: the same holder id, the same incarnation (or none on
     * both sides) and the same principal (or none on both sides).
     */
    public boolean isHeldBy(Claimant candidate) {
        return claimant().equals(candidate);
    }

    /**
     * Whether {@code other} is a view of the same tenure (this one renewed or not): same key,
     * holder, incarnation and acquire.
     */
    public boolean sameTenureAs(Lease other) {
        return key.equals(other.key) && claimant().equals(other.claimant()) && tenure.equals(other.tenure);
    }
}
