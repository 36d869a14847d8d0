package io.dagnats.leases.holder;

/**
 * How many shards one rebalance round of a shard set may move, like Akka Cluster Sharding's
 * {@code rebalance-absolute-limit} and {@code rebalance-relative-limit}: the smaller of
 * {@code absolute} and {@code relative} of the set's shards, and always at least one, so a
 * set that needs a move can make it. Free shards (no live owner) are claimed outside the budget:
 * a member that died must be healed within its TTL, not one round at a time.
 *
 * @param absolute at most this many moves a round, at least 1
 * @param relative at most this share of the set's shards a round, in (0, 1]
 */
public record ShardBudget(int absolute, double relative) {

    /** A tenth of the shards a round, at least one; no absolute limit. */
    public static final ShardBudget DEFAULT = new ShardBudget(Integer.MAX_VALUE, 0.1);

    public ShardBudget {
        if (absolute < 1) {
            throw new IllegalArgumentException("a movement budget allows at least 1 move a round, not " + absolute);
        }
        if (!(relative > 0 && relative <= 1)) {
            throw new IllegalArgumentException("a relative movement budget is a share in (0, 1], not " + relative);
        }
    }

    /** The moves a round of a set of {@code shardCount} shards may make. */
    public int perRound(int shardCount) {
        long relativeLimit = (long) Math.floor(relative * shardCount);
        return (int) Math.max(1, Math.min(absolute, relativeLimit));
    }
}
