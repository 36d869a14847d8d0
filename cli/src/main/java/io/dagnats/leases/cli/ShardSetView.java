package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.holder.ShardQuotas;
import io.dagnats.leases.protocol.LeaseView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One shard set as a listing shows it (ADR-031): its members, the owner of each shard, and
 * whether the spread is the one the holders aim for (each member owns ⌊M/N⌋ or ⌈M/N⌉ of the M
 * shards, and every shard has an owner). A value made of the listing alone.
 *
 * @param shardCount   M: {@code --shards} when given, else one more than the highest shard held
 * @param countDerived whether M was derived (the set's size is stored nowhere)
 * @param members      the members, by holder id: member keys held by the holder they name
 * @param owners       each held shard below M, by shard number
 * @param impostors    member keys held by another holder than they name: not members
 * @param beyond       shard keys at or above a given {@code --shards}: not of the set's M shards
 */
record ShardSetView(String set, Optional<Account> account, int shardCount, boolean countDerived,
        List<Member> members, SortedMap<Integer, LeaseView> owners, List<LeaseView> impostors, List<LeaseView> beyond) {

    /**
     * A member: its holder id, its member lease, how many of the set's shards it owns, its capacity
     * (its capacity key's value, ADR-044; 1 when it has none) and the share it aims for.
     */
    record Member(HolderId holder, LeaseView lease, int owns, int capacity, int target) {
    }

    /**
     * @param leases every held key of the set (its shard and member keys)
     * @param declared the set's size when the operator names it
     */
    static ShardSetView of(String set, Optional<Account> account, List<LeaseView> leases, OptionalInt declared) {
        SortedMap<Integer, LeaseView> shards = new TreeMap<>();
        Map<HolderId, LeaseView> memberLeases = new HashMap<>();
        Map<HolderId, Integer> declaredCapacities = new HashMap<>();
        List<LeaseView> impostors = new ArrayList<>();
        for (LeaseView lease : leases) {
            Optional<ShardSetKeys.Named> named = ShardSetKeys.parse(lease.key()).filter(key -> key.set().equals(set));
            if (named.isPresent() && named.get() instanceof ShardSetKeys.Shard shard) {
                shards.put(shard.shard(), lease);
            } else if (named.isPresent() && named.get() instanceof ShardSetKeys.Member member) {
                if (member.named().equals(lease.holder())) {
                    memberLeases.put(member.named(), lease);
                } else {
                    impostors.add(lease);
                }
            } else if (named.isPresent() && named.get() instanceof ShardSetKeys.Capacity capacity
                    && capacity.named().equals(lease.holder())) {
                capacityOf(lease).ifPresent(value -> declaredCapacities.put(capacity.named(), value));
            }
        }
        int count = declared.orElse(shards.isEmpty() ? 0 : shards.lastKey() + 1);
        SortedMap<Integer, LeaseView> owners = new TreeMap<>(shards.headMap(count));
        List<LeaseView> beyond = new ArrayList<>(shards.tailMap(count).values());
        Map<HolderId, Integer> owns = new HashMap<>();
        owners.values().forEach(lease -> owns.merge(lease.holder(), 1, Integer::sum));
        Map<HolderId, Integer> capacities = new HashMap<>();
        memberLeases.keySet().forEach(holder -> capacities.put(holder, declaredCapacities.getOrDefault(holder, 1)));
        Map<HolderId, Integer> targets = ShardQuotas.of(count, capacities, owns);
        List<Member> members = memberLeases.entrySet().stream()
                .map(entry -> new Member(entry.getKey(), entry.getValue(), owns.getOrDefault(entry.getKey(), 0),
                        capacities.get(entry.getKey()), targets.getOrDefault(entry.getKey(), 0)))
                .sorted(Comparator.comparing(member -> member.holder().value()))
                .toList();
        return new ShardSetView(set, account, count, declared.isEmpty(), members, owners, impostors, beyond);
    }

    /** A capacity key's value: an integer of 1 or more, else none. */
    private static Optional<Integer> capacityOf(LeaseView lease) {
        try {
            return valueOf(lease).map(String::trim).map(Integer::parseInt).filter(capacity -> capacity >= 1);
        } catch (NumberFormatException unreadable) {
            return Optional.empty();
        }
    }

    /** The value stored with an attached key (ADR-043). */
    private static Optional<String> valueOf(LeaseView lease) {
        return lease.attachment().flatMap(Attachment::value);
    }

    /** Shards still to move: what members own over their targets. */
    int toMove() {
        return members.stream().mapToInt(member -> Math.max(0, member.owns() - member.target())).sum();
    }

    /**
     * Store writes a second that keep the set: each member lease renewed every third of its TTL
     * (3·N/TTL), its shards attached to it; per-shard leases would cost 3·M/TTL.
     */
    double keepAlivePerSecond() {
        return members.stream().mapToDouble(member -> 3_000.0 / member.lease().ttl().millis()).sum();
    }

    /** What the same set would cost with a lease per shard (ADR-031), at the members' mean TTL. */
    double perShardLeasesPerSecond() {
        return members.isEmpty() ? 0 : keepAlivePerSecond() / members.size() * shardCount;
    }

    /** The name as an operator reads it: {@code ACCOUNT:SET} in identity mode. */
    String name() {
        return account.map(owner -> owner.value() + ":").orElse("") + set;
    }

    /** ⌊M/N⌋; 0 without members. */
    int floor() {
        return members.isEmpty() ? 0 : shardCount / members.size();
    }

    /** ⌈M/N⌉; 0 without members. */
    int ceiling() {
        return members.isEmpty() ? 0 : (shardCount + members.size() - 1) / members.size();
    }

    boolean isMember(HolderId holder) {
        return members.stream().anyMatch(member -> member.holder().equals(holder));
    }

    /** The shards below M that no one holds. */
    List<Integer> unowned() {
        List<Integer> unowned = new ArrayList<>();
        for (int shard = 0; shard < shardCount; shard++) {
            if (!owners.containsKey(shard)) {
                unowned.add(shard);
            }
        }
        return unowned;
    }

    /** Shards owned by a holder that is no member (leaving, or its member lease lost). */
    long ownedByNonMembers() {
        return owners.values().stream().filter(lease -> !isMember(lease.holder())).count();
    }

    /**
     * The spread the holders aim for: members, every shard owned by one of them, each owning its
     * target by capacity (ADR-044; with equal capacities ⌊M/N⌋ or ⌈M/N⌉).
     */
    boolean balanced() {
        return !members.isEmpty() && shardCount > 0 && unowned().isEmpty() && ownedByNonMembers() == 0
                && members.stream().allMatch(member -> member.owns() == member.target());
    }
}
