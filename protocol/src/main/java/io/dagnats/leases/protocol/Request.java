package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.RevokeReason;
import io.dagnats.leases.domain.Revoker;
import java.time.Duration;
import java.util.Optional;

/**
 * A lease request about one key, typed: what {@link Requests} decodes a body
 * into (service side) and encodes from (client side). A request that exists
 * follows every rule of the contract's request table. (The listing is about no
 * single key: {@link ListRequest}.)
 */
public sealed interface Request {

    Operation operation();

    LeaseKey key();

    /** A request a holder makes about its own lease: acquire, renew, release, handover; attach, detach, move (ADR-043). */
    sealed interface ByHolder extends Request {

        HolderId holder();

        /** The holder's incarnation, when it sends one; see {@link Incarnation}. */
        Optional<Incarnation> incarnation();

        /** Who asks: the holder id and, if sent, the incarnation. */
        default Claimant claimant() {
            return new Claimant(holder(), incarnation());
        }
    }

    record Acquire(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, LeaseTtl ttl) implements ByHolder {
        public Acquire { RequestChecks.acquire(key, holder, incarnation, ttl); }

        /** An acquire by a plain holder, with no incarnation. */
        public Acquire(LeaseKey key, HolderId holder, LeaseTtl ttl) {
            this(key, holder, Optional.empty(), ttl);
        }

        @Override
        public Operation operation() {
            return Operation.ACQUIRE;
        }
    }

    /** @param ttl the new TTL, or empty to keep the lease's current one */
    record Renew(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence revision,
            Optional<LeaseTtl> ttl) implements ByHolder {
        public Renew { RequestChecks.renew(key, holder, incarnation, revision, ttl); }

        /** A renew by a plain holder, with no incarnation. */
        public Renew(LeaseKey key, HolderId holder, Fence revision, Optional<LeaseTtl> ttl) {
            this(key, holder, Optional.empty(), revision, ttl);
        }

        @Override
        public Operation operation() {
            return Operation.RENEW;
        }
    }

    record Release(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence revision)
            implements ByHolder {
        public Release { RequestChecks.byHolderAt(key, holder, incarnation, revision); }

        /** A release by a plain holder, with no incarnation. */
        public Release(LeaseKey key, HolderId holder, Fence revision) {
            this(key, holder, Optional.empty(), revision);
        }

        @Override
        public Operation operation() {
            return Operation.RELEASE;
        }
    }

    /**
     * The owner hands its lease to a named successor (ADR-042): checked as a renew at {@code revision}
     * would be, then the successor is asked whether it waits, then one compare-and-set.
     *
     * @param successor the holder id and incarnation the new lease names; never the caller's holder id
     * @param ttl       the successor's TTL, or empty to keep the lease's current one
     */
    record Handover(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence revision,
            Claimant successor, Optional<LeaseTtl> ttl) implements ByHolder {
        public Handover { RequestChecks.handover(key, holder, incarnation, revision, successor, ttl); }

        @Override
        public Operation operation() {
            return Operation.HANDOVER;
        }
    }

    /**
     * Who waits for a key right now: dagnats asks every candidate on the key's candidates subject and
     * gathers what answers within {@code window} (ADR-042).
     *
     * @param account identity mode (ADR-036), operators: the account whose key it is; empty for the caller's own
     */
    record Candidates(LeaseKey key, Duration window, Optional<Account> account) implements Request {
        public static final Duration MIN_WINDOW = Duration.ofMillis(10);
        public static final Duration MAX_WINDOW = Duration.ofMillis(5_000);
        /** What dagnats waits for answers when the request leaves {@code timeout_ms} out. */
        public static final Duration DEFAULT_WINDOW = Duration.ofMillis(250);

        public Candidates { RequestChecks.candidates(key, window, account, MIN_WINDOW, MAX_WINDOW); }

        /** The default window, in the caller's own namespace. */
        public Candidates(LeaseKey key) {
            this(key, DEFAULT_WINDOW, Optional.empty());
        }

        @Override
        public Operation operation() {
            return Operation.CANDIDATES;
        }
    }

    /**
     * Attaches {@code key} to the caller's member lease (ADR-043).
     *
     * @param member       the caller's member lease, which must be live and the caller's
     * @param memberTenure the member lease's tenure start: the key lives exactly as long as that tenure
     * @param value        an optional short string stored with the key, echoed by owner and list
     */
    record Attach(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, LeaseKey member,
            Fence memberTenure, Optional<String> value) implements ByHolder {
        public Attach { RequestChecks.attach(key, holder, incarnation, member, memberTenure, value); }

        /** What the key is attached to. */
        public Attachment attachment() {
            return new Attachment(member, memberTenure, value);
        }

        @Override
        public Operation operation() {
            return Operation.ATTACH;
        }
    }

    /** Frees the caller's attached key at {@code revision}, as a release frees a lease (ADR-043). */
    record Detach(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence revision)
            implements ByHolder {
        public Detach { RequestChecks.byHolderAt(key, holder, incarnation, revision); }

        @Override
        public Operation operation() {
            return Operation.DETACH;
        }
    }

    /**
     * Attaches the caller's key, held at {@code revision}, to a successor's member lease in one write
     * (ADR-043): the successor owns it from that write, at a new fence; the caller stops at sending it.
     */
    record Move(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence revision,
            HolderId toHolder, Optional<Incarnation> toIncarnation, LeaseKey toMember, Fence toMemberTenure)
            implements ByHolder {
        public Move { RequestChecks.move(key, holder, incarnation, revision, toHolder, toIncarnation, toMember, toMemberTenure); }

        @Override
        public Operation operation() {
            return Operation.MOVE;
        }
    }

    /** @param account identity mode (ADR-036), operators: the account whose key it is; empty for the caller's own */
    record Owner(LeaseKey key, Optional<Account> account) implements Request {
        public Owner { RequestChecks.owner(key, account); }

        /** A look in the caller's own namespace (the only one, with identity mode off). */
        public Owner(LeaseKey key) {
            this(key, Optional.empty());
        }

        @Override
        public Operation operation() {
            return Operation.OWNER;
        }
    }

    /**
     * @param payload what the owner receives as its request body (may be empty)
     * @param timeout bounds dagnats' whole call, attempts included
     */
    record Forward(LeaseKey key, byte[] payload, Duration timeout) implements Request {
        public static final Duration MIN_TIMEOUT = Duration.ofMillis(100);
        public static final Duration MAX_TIMEOUT = Duration.ofMillis(30_000);
        /** What dagnats waits when the request leaves {@code timeout_ms} out. */
        public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(5_000);

        public Forward { RequestChecks.forward(key, payload, timeout, MIN_TIMEOUT, MAX_TIMEOUT); }

        @Override
        public Operation operation() {
            return Operation.FORWARD;
        }
    }

    /**
     * An operator's revoke: frees the key whoever holds it, and says why.
     *
     * @param revision revoke only while this is the current fence; empty to revoke whatever lease is current
     * @param account  identity mode (ADR-036): the account whose key it is; empty for the caller's own
     * @param by       who claims to revoke (ADR-041), named on the write with identity mode off; in
     *                 identity mode the caller's principal is named instead
     */
    record Revoke(LeaseKey key, RevokeReason reason, Optional<Fence> revision, Optional<Account> account,
            Optional<Revoker> by) implements Request {
        public Revoke { RequestChecks.revoke(key, reason, revision, account, by); }

        /** A revoke that claims no revoker. */
        public Revoke(LeaseKey key, RevokeReason reason, Optional<Fence> revision, Optional<Account> account) {
            this(key, reason, revision, account, Optional.empty());
        }

        /** A revoke in the caller's own namespace (the only one, with identity mode off). */
        public Revoke(LeaseKey key, RevokeReason reason, Optional<Fence> revision) {
            this(key, reason, revision, Optional.empty());
        }

        @Override
        public Operation operation() {
            return Operation.REVOKE;
        }
    }
}
