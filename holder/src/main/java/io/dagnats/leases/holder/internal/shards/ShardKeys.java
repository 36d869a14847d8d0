package io.dagnats.leases.holder.internal.shards;

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
 *
 * <p>No set's keys start with another set's member prefix: a name that contains
 * {@value #MEMBER_INFIX} or ends with {@code -member} is refused. That rule is exact.
 * Set B's keys ({@code B-shard-i}, {@code B-member-h}) start with set A's member
 * prefix {@code A-member-} only if B starts with {@code A-member-} (B contains the
 * infix) or B is {@code A-member} (B ends with it). Shard keys need no rule: a key is
 * this set's shard only if it is exactly {@code <set>-shard-<i>}, and
 * {@code A-shard-<digits>} equals a key of another set only if that set's name ends
 * with {@code -member}. Membership also rests on the fact, not the key alone: a
 * member key counts only while it is held by the holder it names.
 */
public record ShardKeys(String set, int shardCount) {

    /** Enough for any set; a listing walks its pages. */
    static final int MAX_SHARDS = 10_000;
    static final String MEMBER_INFIX = "-member-";
    static final String CAPACITY_INFIX = "-capacity-";
    private static final String SHARD_INFIX = "-shard-";

    public ShardKeys {
        if (shardCount < 1 || shardCount > MAX_SHARDS) {
            throw new IllegalArgumentException("a shard set has 1 to " + MAX_SHARDS + " shards, not " + shardCount);
        }
        if (set == null || set.isEmpty()) {
            throw new IllegalArgumentException("a shard set needs a name");
        }
        if (set.contains(MEMBER_INFIX) || set.endsWith("-member")) {
            throw new IllegalArgumentException("shard set name '" + set + "' contains '" + MEMBER_INFIX
                    + "' or ends with '-member': its keys would start with the member prefix of the set '"
                    + set.substring(0, set.contains(MEMBER_INFIX) ? set.indexOf(MEMBER_INFIX) : set.length() - 7)
                    + "', which would count them as members");
        }
        if (set.contains(CAPACITY_INFIX) || set.endsWith("-capacity")) {
            throw new IllegalArgumentException("shard set name '" + set + "' contains '" + CAPACITY_INFIX
                    + "' or ends with '-capacity': its keys would start with another set's capacity prefix");
        }
        String longest = set + SHARD_INFIX + (shardCount - 1);
        try {
            new LeaseKey(longest);
        } catch (InvalidLeaseInput invalid) {
            throw new IllegalArgumentException("shard set name '" + set + "' does not make valid keys ("
                    + longest + "): " + invalid.getMessage(), invalid);
        }
    }

    /** Checks that {@code holder}'s member key is a valid key; the holder id and set name together must fit. */
    void requireMemberKeyFor(HolderId holder) {
        String key = capacityPrefix().value() + holder.value();
        if (key.length() > 128) {
            throw new IllegalArgumentException("capacity key " + key + " would be " + key.length()
                    + " characters, over 128: use a shorter shard set name or holder prefix");
        }
    }

    public LeaseKey shard(int shard) {
        return new LeaseKey(set + SHARD_INFIX + shard);
    }

    LeaseKey member(HolderId holder) {
        return new LeaseKey(memberPrefix().value() + holder.value());
    }

    /** The key that carries {@code holder}'s capacity, attached to its member lease (ADR-044). */
    LeaseKey capacity(HolderId holder) {
        return new LeaseKey(capacityPrefix().value() + holder.value());
    }

    /**
     * What every key of the set starts with ({@code <set>-}): one walk over it lists the members,
     * capacities and shards together. It may list other keys too (another set's, named
     * {@code <set>-...}); the set's facts keep only its own ({@link #shardOf}, {@link #namedBy}).
     */
    KeyPrefix setPrefix() {
        return new KeyPrefix(set + "-");
    }

    KeyPrefix capacityPrefix() {
        return new KeyPrefix(set + CAPACITY_INFIX);
    }

    /** The member whose capacity a key held by {@code holder} shows: {@code holder}, if it is exactly its capacity key. */
    Optional<HolderId> capacityOf(LeaseKey key, HolderId holder) {
        return key.equals(capacity(holder)) ? Optional.of(holder) : Optional.empty();
    }

    KeyPrefix shardPrefix() {
        return new KeyPrefix(set + SHARD_INFIX);
    }

    KeyPrefix memberPrefix() {
        return new KeyPrefix(set + MEMBER_INFIX);
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

    /**
     * The holder a key names, if it is one of this set's member keys. Says nothing of
     * whether that holder is a member: {@link #memberOf(LeaseKey, HolderId)} does.
     */
    Optional<HolderId> namedBy(LeaseKey key) {
        String prefix = memberPrefix().value();
        return key.value().startsWith(prefix) && key.value().length() > prefix.length()
                ? Optional.of(new HolderId(key.value().substring(prefix.length())))
                : Optional.empty();
    }

    /**
     * The member that a lease of {@code key} held by {@code holder} shows: {@code holder}, if
     * the key is this set's member key of exactly that holder; empty for any other key, and for a
     * member key held by a holder other than the one it names (another set's key, a plain lease).
     */
    Optional<HolderId> memberOf(LeaseKey key, HolderId holder) {
        return namedBy(key).filter(holder::equals);
    }
}
