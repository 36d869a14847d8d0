package io.dagnats.leases.domain;

import java.time.Instant;
import java.util.Optional;

/**
 * The rules of keys attached to a member lease (ADR-043), as pure decisions over one read of the
 * key and one of the member. Like {@link LeaseRules}, every write they ask for is a compare-and-set
 * on the key's last sequence, so a decision made on a stale read never takes effect; a member read
 * that went stale meanwhile (it ended) can only attach a key to a dead tenure, which is free by
 * {@link AttachedLiveness}.
 */
public final class AttachRules {

    private AttachRules() {
    }

    /**
     * The member lease an attach or move may name: a plain lease held by {@code holder} (holder id,
     * incarnation, principal) whose tenure began at {@code tenure}; empty otherwise.
     */
    public static Optional<Lease> liveMember(KeyState member, Claimant holder, Fence tenure) {
        return member instanceof KeyState.Held held && AttachedLiveness.isMemberTenure(held.lease(), holder, tenure)
                ? Optional.of(held.lease()) : Optional.empty();
    }

    /**
     * The successor's member lease a move may name: a plain lease held by holder id {@code holder} with
     * incarnation {@code incarnation} (whatever principal vouched for it, in the key's namespace) whose
     * tenure began at {@code tenure}; empty otherwise. Its claimant is who the moved key is written for.
     */
    public static Optional<Lease> liveSuccessor(KeyState member, HolderId holder, Optional<Incarnation> incarnation,
            Fence tenure) {
        if (!(member instanceof KeyState.Held held)) {
            return Optional.empty();
        }
        Lease lease = held.lease();
        Claimant named = new Claimant(holder, incarnation, lease.principal());
        return AttachedLiveness.isMemberTenure(lease, named, tenure) ? Optional.of(lease) : Optional.empty();
    }

    /** What an attach answers when {@link #liveMember} found none: lost, nothing written. */
    public static Lost memberNotHeld(LeaseKey key, LeaseKey member, Fence tenure) {
        return new Lost(key, Lost.Reason.MEMBER_NOT_HELD, "member lease " + member + " is not held by the caller in the"
                + " tenure begun at " + tenure + " (expired, released, revoked, or another tenure)");
    }

    /**
     * Attaches a free key to {@code member}'s tenure in one write, with no TTL. A key already attached
     * to that same tenure for the caller is granted as it is (same revision, nothing written), so a
     * retried attach is safe; a key held otherwise (a plain lease, or attached to a live member) is a
     * normal answer naming its holder.
     *
     * @param member the caller's live member lease ({@link #liveMember}); its expiry is the key's
     */
    public static Decision<Attaching> attach(KeyState state, Lease member, Claimant caller, Attachment attachment,
            Instant now) {
        if (state instanceof KeyState.Held held) {
            Lease lease = held.lease();
            boolean same = lease.isHeldBy(caller) && lease.attachment().filter(attachment::sameMemberTenure).isPresent();
            return new Decision.Answer<>(same ? new Attaching.Granted(lease) : new Attaching.HeldByOther(lease));
        }
        return new Decision.Apply<>(new LeaseWrite.Put(state.key(), state.lastSequence(), LeaseEvent.ATTACHED, caller,
                now, member.writtenAt(), member.ttl(), Optional.empty(), Optional.of(attachment), Optional.empty()));
    }

    /** Frees the caller's attached key at {@code presented} with the release form; lost as a release is. */
    public static Decision<Release> detach(KeyState state, Claimant caller, Fence presented) {
        Optional<Lost> lost = LeaseRules.checkHeldAt(state, caller, presented, LeaseRules.Form.ATTACHED_KEY,
                "release it");
        if (lost.isPresent()) {
            return new Decision.Answer<>(lost.get());
        }
        return new Decision.Apply<>(new LeaseWrite.Tombstone(((KeyState.Held) state).lease(), Optional.empty()));
    }

    /**
     * Attaches the caller's key, held at {@code presented}, to a successor's live member tenure in one
     * write; the successor holds it from that write, at its new fence.
     *
     * @param successorMember the successor's live member lease ({@link #liveMember}): it names the successor
     */
    public static Decision<Moving> move(KeyState state, Claimant caller, Fence presented, Lease successorMember,
            Attachment to, Instant now) {
        Optional<Lost> lost = LeaseRules.checkHeldAt(state, caller, presented, LeaseRules.Form.ATTACHED_KEY,
                "release it");
        if (lost.isPresent()) {
            return new Decision.Answer<>(lost.get());
        }
        return new Decision.Apply<>(new LeaseWrite.Put(state.key(), state.lastSequence(), LeaseEvent.MOVED,
                successorMember.claimant(), now, successorMember.writtenAt(), successorMember.ttl(), Optional.empty(),
                Optional.of(to), Optional.of(caller.holder())));
    }
}
