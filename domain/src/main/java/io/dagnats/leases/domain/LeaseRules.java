package io.dagnats.leases.domain;

import java.time.Instant;
import java.util.Optional;

/**
 * The lease rules, as pure decisions over one read of a key. Callers apply the
 * write a decision asks for as a compare-and-set on the key's last sequence, so
 * a decision made on a stale read can never take effect.
 */
public final class LeaseRules {

    private LeaseRules() {
    }

    /**
     * A free key is granted in one write. The current holder gets its lease back
     * unchanged (same revision, no TTL extension), so a retried acquire after a
     * lost reply is safe. Another holder's lease is a normal answer naming it; a lease of the
     * caller's holder id under another incarnation (or with one, when the caller sends none) is
     * another holder's.
     */
    public static Decision<Acquisition> acquire(KeyState state, Claimant caller, LeaseTtl ttl, Instant now) {
        if (state instanceof KeyState.Held held) {
            Lease lease = held.lease();
            return new Decision.Answer<>(lease.isHeldBy(caller)
                    ? new Acquisition.Granted(lease)
                    : new Acquisition.HeldByOther(lease));
        }
        return new Decision.Apply<>(new LeaseWrite.Put(
                state.key(), state.lastSequence(), LeaseEvent.ACQUIRED, caller, now, now, ttl, Optional.empty()));
    }

    /**
     * Extends the caller's lease to {@code ttl} (or its current TTL) from now,
     * provided the caller holds it under exactly {@code presented}. The new write
     * raises the fence and keeps the tenure and its acquire time.
     */
    public static Decision<Renewal> renew(
            KeyState state, Claimant caller, Fence presented, Optional<LeaseTtl> ttl, Instant now) {
        Optional<Lost> lost = checkHeldAt(state, caller, presented, Form.PLAIN_LEASE,
                "renew the member lease instead, or detach the key");
        if (lost.isPresent()) {
            return new Decision.Answer<>(lost.get());
        }
        Lease lease = ((KeyState.Held) state).lease();
        return new Decision.Apply<>(new LeaseWrite.Put(
                lease.key(),
                lease.revision().revision(),
                LeaseEvent.RENEWED,
                caller,
                lease.acquiredAt(),
                now,
                ttl.orElse(lease.ttl()),
                Optional.of(lease.tenure())));
    }

    /**
     * Hands the caller's lease to {@code successor} in one write, provided the caller holds it under
     * exactly {@code presented} (the same check as {@link #renew}, so the same {@code lost} answers).
     * The write begins the successor's tenure at its own, higher fence (nobody can take the key in
     * between: it is a compare-and-set on {@code presented}); the successor is bound to the caller's
     * principal, the namespace the key is in (ADR-036). Whether the successor waits for the key is
     * asked before, outside these rules; it owns the key once the write answers its yes (ADR-046).
     *
     * @param ttl the successor's TTL; empty keeps the lease's current one
     * @param check the check the successor said yes to, which the write carries (ADR-047)
     * @throws IllegalArgumentException when {@code successor} is the caller's own holder id
     */
    public static Decision<Handover> handover(KeyState state, Claimant caller, Fence presented, Claimant successor,
            Optional<LeaseTtl> ttl, Optional<HandoverCheck> check, Instant now) {
        if (successor.holder().equals(caller.holder())) {
            throw new IllegalArgumentException("a holder hands a lease to another holder id, not to its own");
        }
        Optional<Lost> lost = checkHeldAt(state, caller, presented, Form.PLAIN_LEASE,
                "move it to another member instead");
        if (lost.isPresent()) {
            return new Decision.Answer<>(lost.get());
        }
        Lease lease = ((KeyState.Held) state).lease();
        return new Decision.Apply<>(new LeaseWrite.Put(
                lease.key(),
                lease.revision().revision(),
                LeaseEvent.HANDED_OVER,
                new Claimant(successor.holder(), successor.incarnation(), caller.principal()),
                now,
                now,
                ttl.orElse(lease.ttl()),
                Optional.empty(),
                Optional.empty(),
                Optional.of(lease.holder()),
                check));
    }

    /** Frees the key under the same fence check as {@link #renew}. An expired lease is lost. */
    public static Decision<Release> release(KeyState state, Claimant caller, Fence presented) {
        Optional<Lost> lost = checkFence(state, caller, presented);
        if (lost.isPresent()) {
            return new Decision.Answer<>(lost.get());
        }
        return new Decision.Apply<>(new LeaseWrite.Tombstone(((KeyState.Held) state).lease(), Optional.empty()));
    }

    /**
     * An operator frees the key whoever holds it, provided it is held and, when
     * {@code expected} is given, under exactly that fence. The write is the same
     * tombstone a release makes, naming the holder, its fence and the reason.
     */
    public static Decision<Revocation> revoke(KeyState state, Optional<Fence> expected, RevokeReason reason) {
        return revoke(state, expected, reason, Optional.empty());
    }

    /** As {@link #revoke(KeyState, Optional, RevokeReason)}, the tombstone naming who revoked (ADR-041). */
    public static Decision<Revocation> revoke(KeyState state, Optional<Fence> expected, RevokeReason reason,
            Optional<Revoker> by) {
        if (!(state instanceof KeyState.Held held)) {
            return new Decision.Answer<>(new Revocation.Free(state.key()));
        }
        Lease lease = held.lease();
        if (expected.isPresent() && !expected.get().equals(lease.revision())) {
            return new Decision.Answer<>(new Revocation.NotCurrent(lease));
        }
        return new Decision.Apply<>(LeaseWrite.Tombstone.revoke(lease, reason, by));
    }

    /**
     * A revoke without a revision, decided again after its tombstone of {@code first} lost a
     * race: it still ends only that tenure, renewed since or not. A lease of another holder,
     * or a new tenure of the same holder (released and acquired again in between), is no lease
     * the operator looked at: it is answered as not current and nothing is written.
     */
    public static Decision<Revocation> revokeAgain(KeyState state, Lease first, RevokeReason reason) {
        return revokeAgain(state, first, reason, Optional.empty());
    }

    /** As {@link #revokeAgain(KeyState, Lease, RevokeReason)}, the tombstone naming who revoked (ADR-041). */
    public static Decision<Revocation> revokeAgain(KeyState state, Lease first, RevokeReason reason,
            Optional<Revoker> by) {
        if (state instanceof KeyState.Held held && !held.lease().sameTenureAs(first)) {
            return new Decision.Answer<>(new Revocation.NotCurrent(held.lease()));
        }
        return revoke(state, Optional.empty(), reason, by);
    }

    /** What a call at a fence acts on (ADR-043): renew and handover a plain lease, detach and move an attached key. */
    enum Form { PLAIN_LEASE, ATTACHED_KEY }

    /**
     * The one check before renew, handover, detach and move: the key is held by the caller under exactly
     * {@code presented} ({@link #checkFence}), and is the form the call acts on. A plain-lease call on an
     * attached key is lost {@code ATTACHED}; an attached-key call on a plain lease is lost {@code NOT_HELD}.
     *
     * @param instead what the caller should do instead, said in the lost answer of the wrong form
     */
    static Optional<Lost> checkHeldAt(KeyState state, Claimant caller, Fence presented, Form form, String instead) {
        Optional<Lost> lost = checkFence(state, caller, presented);
        if (lost.isPresent()) {
            return lost;
        }
        Lease lease = ((KeyState.Held) state).lease();
        if (form == Form.PLAIN_LEASE && lease.isAttached()) {
            return Optional.of(new Lost(state.key(), Lost.Reason.ATTACHED, "it is attached to member lease "
                    + lease.attachment().get().member() + ": " + instead));
        }
        if (form == Form.ATTACHED_KEY && !lease.isAttached()) {
            return Optional.of(new Lost(state.key(), Lost.Reason.NOT_HELD,
                    "it is a plain lease, not a key attached to a member lease: " + instead));
        }
        return Optional.empty();
    }

    static Optional<Lost> checkFence(KeyState state, Claimant caller, Fence presented) {
        if (!(state instanceof KeyState.Held held)) {
            return Optional.of(new Lost(state.key(), Lost.Reason.NOT_HELD,
                    "nobody holds it (never acquired, released, or expired)"));
        }
        Lease lease = held.lease();
        if (!lease.isHeldBy(caller)) {
            return Optional.of(new Lost(state.key(), Lost.Reason.HELD_BY_OTHER,
                    !lease.principal().equals(caller.principal())
                            ? "it is held by another principal"
                            : lease.holder().equals(caller.holder())
                            ? "it is held under holder id " + lease.holder() + " by another incarnation ("
                                    + lease.incarnation().map(Incarnation::value).orElse("none") + ")"
                            : "it is held by another holder"));
        }
        if (!lease.revision().equals(presented)) {
            return Optional.of(new Lost(state.key(), Lost.Reason.STALE_FENCE,
                    "revision " + presented + " is not the current fence " + lease.revision()));
        }
        return Optional.empty();
    }
}
