package io.dagnats.leases.cli;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The lease keys of the holder library's shard sets (ADR-031), read back from a listing:
 * {@code <set>-shard-<i>} for shard i (no leading zeros, below 10 000) and
 * {@code <set>-member-<holder id>} for each member. The holder library's {@code ShardKeys}
 * makes them; these rules are its, read the other way, and the shard set acceptance test of
 * the CLI checks them against real holders.
 *
 * <p>No set name contains {@code -member-} or ends with {@code -member} (the holder refuses
 * them), so a key's first {@code -member-} ends its set's name; a key with none is a shard key
 * if it ends with {@code -shard-} and a shard number. A member's capacity key (ADR-044) is
 * {@code <set>-capacity-<holder id>}; the holder refuses set names containing {@code -capacity-}. The set's size is stored nowhere: the
 * holders each pass it to {@code LeaseHolder.shards}.
 */
final class ShardSetKeys {

    /** As many shards as the holder library allows a set. */
    static final int MAX_SHARDS = 10_000;
    private static final String SHARD_INFIX = "-shard-";
    private static final String MEMBER_INFIX = "-member-";
    private static final String CAPACITY_INFIX = "-capacity-";
    private static final Pattern SHARD_NUMBER = Pattern.compile("0|[1-9][0-9]{0,3}");

    /** What a key is to a shard set. */
    sealed interface Named {
        String set();
    }

    record Shard(String set, int shard) implements Named {
    }

    /** A member key: it counts only while held by the holder it names. */
    record Member(String set, HolderId named) implements Named {
    }

    /** A member's capacity key (ADR-044), attached to its member lease; its value is the capacity. */
    record Capacity(String set, HolderId named) implements Named {
    }

    private ShardSetKeys() {
    }

    /** The shard set key {@code key} is, if any. */
    static Optional<Named> parse(LeaseKey key) {
        String value = key.value();
        int member = value.indexOf(MEMBER_INFIX);
        if (member > 0) {
            String named = value.substring(member + MEMBER_INFIX.length());
            return named.isEmpty() ? Optional.empty()
                    : Optional.of(new Member(value.substring(0, member), new HolderId(named)));
        }
        int capacity = value.indexOf(CAPACITY_INFIX);
        if (capacity > 0) {
            String named = value.substring(capacity + CAPACITY_INFIX.length());
            return named.isEmpty() ? Optional.empty()
                    : Optional.of(new Capacity(value.substring(0, capacity), new HolderId(named)));
        }
        int shard = value.lastIndexOf(SHARD_INFIX);
        if (shard <= 0) {
            return Optional.empty();
        }
        String number = value.substring(shard + SHARD_INFIX.length());
        return SHARD_NUMBER.matcher(number).matches()
                ? Optional.of(new Shard(value.substring(0, shard), Integer.parseInt(number)))
                : Optional.empty();
    }

    /** Why the holder library refuses {@code set} as a name, if it does: then no such set exists. */
    static Optional<String> refused(String set) {
        if (set.contains(MEMBER_INFIX) || set.endsWith("-member")) {
            return Optional.of("a shard set's name never contains '" + MEMBER_INFIX + "' or ends with '-member'"
                    + " (the holder library refuses it): " + set);
        }
        try {
            shardPrefix(set);
            return Optional.empty();
        } catch (IllegalArgumentException invalid) {
            return Optional.of("'" + set + "' makes no valid key: " + invalid.getMessage());
        }
    }

    static KeyPrefix shardPrefix(String set) {
        return new KeyPrefix(set + SHARD_INFIX);
    }

    static KeyPrefix capacityPrefix(String set) {
        return new KeyPrefix(set + CAPACITY_INFIX);
    }

    static KeyPrefix memberPrefix(String set) {
        return new KeyPrefix(set + MEMBER_INFIX);
    }

    static String shardKey(String set, int shard) {
        return set + SHARD_INFIX + shard;
    }
}
