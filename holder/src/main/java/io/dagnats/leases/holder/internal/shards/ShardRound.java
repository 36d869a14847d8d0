package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.HolderId;
import java.util.List;

/**
 * The rebalance round one member of a shard set follows: the moves {@link ShardPlacement} planned
 * when the round began, kept as planned (not re-planned on every event), so that rounds do not
 * overlap. A new round is planned only once this one is over: every move done or void in the view,
 * or the round older than its timeout (a move that can never be made must not stop the set from
 * rebalancing for ever). Every member plans from what it sees and only a shard's owner acts on its
 * moves; members that see the same set plan the same rounds (ADR-044).
 *
 * @param moves     the round's moves, at most the budget
 * @param startedAt when it began, on the set's monotonic clock (nanoseconds)
 */
record ShardRound(List<ShardPlacement.Move> moves, long startedAt) {

    /** Before any round: over at once. */
    static final ShardRound NONE = new ShardRound(List.of(), 0);

    ShardRound {
        moves = List.copyOf(moves);
    }

    /**
     * The round to follow at {@code now}: this one while it lasts, else a new one planned from {@code view}.
     *
     * @param timeoutNanos how long a round may last before the next is planned anyway
     */
    ShardRound next(ShardPlacement.View view, long now, long timeoutNanos) {
        if (!isOver(view, now, timeoutNanos)) {
            return this;
        }
        List<ShardPlacement.Move> planned = ShardPlacement.plan(view).moves();
        return planned.isEmpty() && moves.isEmpty() ? this : new ShardRound(planned, now);
    }

    /** Every move done or void, or the round timed out. */
    boolean isOver(ShardPlacement.View view, long now, long timeoutNanos) {
        return now - startedAt >= timeoutNanos || moves.stream().allMatch(move -> isSettled(move, view));
    }

    /** The moves of this round that {@code member} still has to make: it owns the shard, and the target is still one. */
    List<ShardPlacement.Move> pendingFrom(HolderId member, ShardPlacement.View view) {
        return moves.stream().filter(move -> move.from().equals(member) && !isSettled(move, view)).toList();
    }

    /**
     * A move is settled when the shard reached its target, or when it can no longer be made: the
     * shard is no longer its source's (freed, or someone else's), or the source or target left.
     */
    private static boolean isSettled(ShardPlacement.Move move, ShardPlacement.View view) {
        HolderId owner = view.owners().get(move.shard());
        return !move.from().equals(owner) || !view.members().containsKey(move.from())
                || !view.members().containsKey(move.to());
    }
}
