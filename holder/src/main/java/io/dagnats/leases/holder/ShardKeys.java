package io.dagnats.leases.holder;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import java.util.Optional;

/**
 * The lease keys of one shard set: {@code <set>-shard-<i>} for shard i (0 to M-1,
 * no leading zeros) and {@code <set>-member-<holder id>} for each live replica.
 * Every key is one key of the contract (at most 128 of {@code [A-Za-z0-9_-]}),
 * checked when the set is made, so a set that cannot be kept fails at once.
 */
record ShardKeys(String set, int shardCount) {

    /** Enough for any set; a listing walks its pages. */
    static final int MAX_SHARDS = 10_000;

    ShardKeys {
        if (shardCount < 1 || shardCount > MAX_SHARDS) {
            throw new IllegalArgumentException("a shard set has 1 to " + MAX_SHARDS + " shards, not " + shardCount);
        }
        if (set == null || set.isEmpty()) {
            throw new IllegalArgumentException("a shard set needs a name");
        }
        String longest = set + "-shard-" + (shardCount - 1);
        try {
            new LeaseKey(longest);
        } catch (InvalidLeaseInput invalid) {
            throw new IllegalArgumentException("shard set name '" + set + "' does not make valid keys ("
                    + longest + "): " + invalid.getMessage(), invalid);
        }
    }

    /** Checks that {@code holder}'s member key is a valid key; the holder id and set name together must fit. */
    void requireMemberKeyFor(HolderId holder) {
        String key = memberPrefix().value() + holder.value();
        if (key.length() > 128) {
            throw new IllegalArgumentException("member key " + key + " would be " + key.length()
                    + " characters, over 128: use a shorter shard set name or holder prefix");
        }
    }

    LeaseKey shard(int shard) {
        return new LeaseKey(set + "-shard-" + shard);
    }

    LeaseKey member(HolderId holder) {
        return new LeaseKey(memberPrefix().value() + holder.value());
    }

    KeyPrefix shardPrefix() {
        return new KeyPrefix(set + "-shard-");
    }

    KeyPrefix memberPrefix() {
        return new KeyPrefix(set + "-member-");
    }

    /** The shard a key names, if it is one of this set's shard keys. */
    Optional<Integer> shardOf(LeaseKey key) {
        String prefix = shardPrefix().value();
        if (!key.value().startsWith(prefix)) {
            return Optional.empty();
        }
        try {
            int shard = Integer.parseInt(key.value().substring(prefix.length()));
            return shard >= 0 && shard < shardCount && shard(shard).equals(key) ? Optional.of(shard) : Optional.empty();
        } catch (NumberFormatException other) {
            return Optional.empty();
        }
    }

    /** The holder a key names, if it is one of this set's member keys. */
    Optional<HolderId> memberOf(LeaseKey key) {
        String prefix = memberPrefix().value();
        return key.value().startsWith(prefix) && key.value().length() > prefix.length()
                ? Optional.of(new HolderId(key.value().substring(prefix.length())))
                : Optional.empty();
    }
}
