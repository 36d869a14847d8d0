package io.dagnats.leases.holder;

import java.util.Objects;

/**
 * How a member takes part in a shard set whose shards are kept by its member lease (ADR-044):
 * its capacity (shares follow capacity; at least 1) and the movement budget of a rebalance round.
 * {@code ShardSetOptions.defaults().capacity(2).budget(new ShardBudget(20, 0.1))}.
 */
public record ShardSetOptions(int capacity, ShardBudget budget) {

    public ShardSetOptions {
        if (capacity < 1) {
            throw new IllegalArgumentException("a shard set member's capacity is at least 1, not " + capacity);
        }
        Objects.requireNonNull(budget, "budget");
    }

    /** Capacity 1, a tenth of the shards a round. */
    public static ShardSetOptions defaults() {
        return new ShardSetOptions(1, ShardBudget.DEFAULT);
    }

    public ShardSetOptions capacity(int capacity) {
        return new ShardSetOptions(capacity, budget);
    }

    public ShardSetOptions budget(ShardBudget budget) {
        return new ShardSetOptions(capacity, budget);
    }
}
