package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import java.util.Optional;

/**
 * Where one shard stands with this member of an attached shard set (ADR-044), named instead of
 * flags that could disagree. Only {@link Owned} and {@link Draining} are belief, and only while
 * the member lease is held at the member tenure they name: belief in a shard never outlives the
 * member's, ends before a move or detach of it is sent, ends when the set's facts show its key
 * written by anyone since its grant (an operator's revoke, a move by someone else), and ends when
 * no listing has shown the set for more than a TTL since its grant or the last listing that did.
 */
sealed interface OwnShard {

    /** The member tenure a state was reached under; a state under another tenure is stale. */
    Fence memberTenure();

    /**
     * Whether {@code facts} show that this state's belief in {@code shard} is over: its key written
     * since the grant it rests on, by anyone (see {@link SetFacts#showsGone}). Never for a state that is no belief.
     */
    default boolean shownGone(int shard, HolderId me, SetFacts facts) {
        return false;
    }

    /**
     * Whether belief in the shard has gone unseen too long at {@code nowNanos}: no listing of the set
     * begun after its grant succeeded for more than {@code ttlNanos} (see {@link SetFacts#unseenSince}).
     * Never for a state that is no belief.
     */
    default boolean unseenTooLong(SetFacts facts, long nowNanos, long ttlNanos) {
        return false;
    }

    /** Whether this state is belief in the shard (while the member tenure lasts). */
    default boolean isBelief() {
        return false;
    }

    /** The shard's fence, if this state is belief under the member tenure {@code tenureStart}. */
    default Optional<Fence> believedUnder(Fence tenureStart) {
        return Optional.empty();
    }

    /**
     * Belief in the shard at {@code revision()}, resting on the grant heeded at {@code grantedAt()}:
     * {@link Owned}, and {@link Draining} until its move or detach is sent.
     */
    sealed interface Belief extends OwnShard {

        Fence revision();

        long grantedAt();

        @Override
        default boolean shownGone(int shard, HolderId me, SetFacts facts) {
            return facts.showsGone(shard, me, revision(), grantedAt());
        }

        @Override
        default boolean unseenTooLong(SetFacts facts, long nowNanos, long ttlNanos) {
            return facts.unseenSince(grantedAt(), nowNanos, ttlNanos);
        }

        @Override
        default boolean isBelief() {
            return true;
        }

        @Override
        default Optional<Fence> believedUnder(Fence tenureStart) {
            return memberTenure().equals(tenureStart) ? Optional.of(revision()) : Optional.empty();
        }
    }

    /** An attach sent (a claim, or the confirmation of a shard moved here): not owned until it answers granted. */
    record Attaching(Fence memberTenure) implements OwnShard {
    }

    /**
     * Owned from an attach answered granted at {@code revision}, the shard's fence, heeded at
     * {@code grantedAt} (the set's monotonic clock): a listing begun after then shows the grant.
     */
    record Owned(Fence revision, Fence memberTenure, long grantedAt) implements Belief {
    }

    /** Owned and being drained, before a move to {@code target} (or, with none, a detach). */
    record Draining(Fence revision, Fence memberTenure, long grantedAt, Optional<ShardCalls.Target> target)
            implements Belief {
    }

    /** Belief ended, the move or detach sent: waiting for its answer. */
    record HandingOver(Fence revision, Fence memberTenure) implements OwnShard {
    }

    /**
     * A drain overran its bound: belief ended and the drain was interrupted, but it may still act
     * under its tenure, so the shard stays attached here, owned by nobody, until
     * {@code readyAtNanos} (a TTL later, as a kept lease abandoned to its TTL), then is detached.
     */
    record Parked(Fence revision, Fence memberTenure, long readyAtNanos) implements OwnShard {
    }
}
