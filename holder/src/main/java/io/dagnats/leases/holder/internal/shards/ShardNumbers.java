package io.dagnats.leases.holder.internal.shards;

import java.util.Set;
import java.util.stream.Collectors;

/** Shards named in one log line: all of them when few, else the first ones and how many in all. */
final class ShardNumbers {

    /** Shards named one by one; beyond it, a line names these and the count. */
    static final int NAMED = 20;

    private ShardNumbers() {
    }

    /** {@code shards} in their iteration order, as "shard 3", "shards 1, 4, 9" or "1000 shards (0, 1, ... and 980 more)". */
    static String of(Set<Integer> shards) {
        if (shards.size() == 1) {
            return "shard " + shards.iterator().next();
        }
        String named = shards.stream().limit(NAMED).map(String::valueOf).collect(Collectors.joining(", "));
        return shards.size() <= NAMED ? "shards " + named
                : shards.size() + " shards (" + named + " and " + (shards.size() - NAMED) + " more)";
    }
}
