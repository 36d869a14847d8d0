package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.RevokeReason;
import io.dagnats.leases.domain.Revoker;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The rules each {@link Request} record's constructor holds, one method a record, so that a
 * request that exists follows the contract's request table while the records themselves stay a
 * readable list of what each request carries. The records pass their bounds in, so that this class
 * never names them (they use it).
 */
final class RequestChecks {

    private RequestChecks() {
    }

    static void acquire(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, LeaseTtl ttl) {
        byHolder(key, holder, incarnation);
        Objects.requireNonNull(ttl, "ttl");
    }

    static void renew(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence revision,
            Optional<LeaseTtl> ttl) {
        byHolderAt(key, holder, incarnation, revision);
        Objects.requireNonNull(ttl, "ttl");
    }

    /** Release and detach: a holder's request at one fence, carrying nothing more. */
    static void byHolderAt(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence revision) {
        byHolder(key, holder, incarnation);
        Objects.requireNonNull(revision, "revision");
    }

    /** A handover goes to one other process, named by the caller; the service binds its principal. */
    static void handover(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence revision,
            Claimant successor, Optional<LeaseTtl> ttl) {
        byHolderAt(key, holder, incarnation, revision);
        Objects.requireNonNull(successor, "successor");
        Objects.requireNonNull(ttl, "ttl");
        if (successor.incarnation().isEmpty()) {
            throw new InvalidLeaseInput("to_incarnation is required: a handover names the one process it goes to");
        }
        if (successor.holder().equals(holder)) {
            throw new InvalidLeaseInput("to_holder must differ from holder: a lease is handed to another holder");
        }
        if (successor.principal().isPresent()) {
            throw new IllegalArgumentException("a successor on the wire names no principal; the service binds it");
        }
    }

    static void candidates(LeaseKey key, Duration window, Optional<Account> account, Duration min, Duration max) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(account, "account");
        timeoutWithin(window, min, max);
    }

    static void attach(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, LeaseKey member,
            Fence memberTenure, Optional<String> value) {
        byHolder(key, holder, incarnation);
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(memberTenure, "memberTenure");
        Objects.requireNonNull(value, "value");
        notAttachedToItself(key, member);
        new Attachment(member, memberTenure, value); // the value's length rule
    }

    static void move(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation, Fence revision,
            HolderId toHolder, Optional<Incarnation> toIncarnation, LeaseKey toMember, Fence toMemberTenure) {
        byHolderAt(key, holder, incarnation, revision);
        Objects.requireNonNull(toHolder, "toHolder");
        Objects.requireNonNull(toIncarnation, "toIncarnation");
        Objects.requireNonNull(toMember, "toMember");
        Objects.requireNonNull(toMemberTenure, "toMemberTenure");
        notAttachedToItself(key, toMember);
    }

    static void owner(LeaseKey key, Optional<Account> account) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(account, "account");
    }

    static void forward(LeaseKey key, byte[] payload, Duration timeout, Duration min, Duration max) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(timeout, "timeout");
        timeoutWithin(timeout, min, max);
    }

    static void revoke(LeaseKey key, RevokeReason reason, Optional<Fence> revision, Optional<Account> account,
            Optional<Revoker> by) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(revision, "revision");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(by, "by");
    }

    private static void byHolder(LeaseKey key, HolderId holder, Optional<Incarnation> incarnation) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(incarnation, "incarnation");
    }

    private static void notAttachedToItself(LeaseKey key, LeaseKey member) {
        if (member.equals(key)) {
            throw new InvalidLeaseInput("a key cannot be attached to itself");
        }
    }

    private static void timeoutWithin(Duration timeout, Duration min, Duration max) {
        if (timeout.compareTo(min) < 0 || timeout.compareTo(max) > 0) {
            throw new InvalidLeaseInput("timeout_ms must be from " + min.toMillis() + " to " + max.toMillis());
        }
    }
}
