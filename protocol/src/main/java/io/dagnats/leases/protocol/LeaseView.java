package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A lease as dagnats reported it.
 *
 * @param incarnation the holder's incarnation, when it sent one: part of who holds the lease
 * @param revision    the fence; send it with every downstream write
 * @param tenure      the fence of the acquire that began this holder's tenure (renewals keep it);
 *                    empty only from a dagnats older than the field
 * @param expiresAt   advisory wall-clock expiry; the server's TTL is what frees the key
 * @param account     identity mode (ADR-036): the account whose key it is. Apart from {@code key} on
 *                    purpose: a holder compares the key with the one it asked for, which names no account
 * @param attachment  ADR-043: the member lease a key is attached to ({@code attached_to}, {@code member_tenure},
 *                    {@code value}); then {@code expiresAt} and {@code ttl} are the member lease's
 */
public record LeaseView(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence revision,
        Optional<Fence> tenure, Instant acquiredAt, Instant expiresAt, LeaseTtl ttl, Optional<Account> account,
        Optional<Attachment> attachment) {

    public LeaseView {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(incarnation, "incarnation");
        Objects.requireNonNull(revision, "revision");
        Objects.requireNonNull(tenure, "tenure");
        Objects.requireNonNull(acquiredAt, "acquiredAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(attachment, "attachment");
    }

    /** A view of a plain lease: no attachment. */
    public LeaseView(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence revision,
            Optional<Fence> tenure, Instant acquiredAt, Instant expiresAt, LeaseTtl ttl, Optional<Account> account) {
        this(key, holder, incarnation, revision, tenure, acquiredAt, expiresAt, ttl, account, Optional.empty());
    }

    /** A view from a dagnats with identity mode off: no account. */
    public LeaseView(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence revision,
            Optional<Fence> tenure, Instant acquiredAt, Instant expiresAt, LeaseTtl ttl) {
        this(key, holder, incarnation, revision, tenure, acquiredAt, expiresAt, ttl, Optional.empty());
    }

    /** A view of a plain holder's lease (no incarnation) whose tenure is not told. */
    public LeaseView(LeaseKey key, HolderId holder, Fence revision, Instant acquiredAt, Instant expiresAt, LeaseTtl ttl) {
        this(key, holder, Optional.empty(), revision, Optional.empty(), acquiredAt, expiresAt, ttl);
    }

    /** Who holds it: the holder id and its incarnation, if it sent one. */
    public Claimant claimant() {
        return new Claimant(holder, incarnation);
    }

    /** Whether {@code candidate} holds it: the same holder id and the same incarnation, or none on both sides. */
    public boolean isHeldBy(Claimant candidate) {
        return claimant().equals(candidate);
    }
}
