package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.HolderId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one replica of a shard set does next, decided from what it sees of the
 * set: a pure function, so every replica that sees the same set decides alike.
 *
 * <p>The rule. With N live members and M shards, {@code M mod N} members may own
 * ⌈M/N⌉ shards and the others ⌊M/N⌋; the ceiling goes to the members that own
 * the most now, ties to the lowest holder id, so a settled set stays as it is and
 * a change of N moves only the shards it must. A replica over its quota gives up
 * its highest-numbered shards (drain, then release); one under it campaigns for
 * free shards, starting at its own place in the ring so that two newcomers seldom
 * race for one shard; a campaign the replica no longer needs, or for a shard
 * another holder took, is abandoned. A replica that is no member (its member
 * lease is not held) campaigns for nothing and gives up nothing: its shards are
 * safe with it until its leases end. Shards it is leaving (draining, or abandoned
 * to their TTL) are neither its own for the quota nor free to campaign for.
 */
final class ShardBalance {

    private ShardBalance() {
    }

    /**
     * One replica's view of its set.
     *
     * @param members the holders whose member leases are held, this replica included if it is one
     * @param owners  the holder of each held shard, as last listed or heard of
     * @param owned   the shards this replica acts as owner of now
     * @param pending the shards it campaigns for and does not own yet
     * @param leaving the shards it gives up and still holds on the server: being drained, or
     *                abandoned to their TTL and not yet seen freed; none of {@code owned}
     */
    record View(int shardCount, HolderId me, Set<HolderId> members, Map<Integer, HolderId> owners,
            Set<Integer> owned, Set<Integer> pending, Set<Integer> leaving) {
        View {
            members = Set.copyOf(members);
            owners = Map.copyOf(owners);
            owned = Set.copyOf(owned);
            pending = Set.copyOf(pending);
            leaving = Set.copyOf(leaving);
        }

        View(int shardCount, HolderId me, Set<HolderId> members, Map<Integer, HolderId> owners,
                Set<Integer> owned, Set<Integer> pending) {
            this(shardCount, me, members, owners, owned, pending, Set.of());
        }
    }

    /**
     * What to do, each list in ascending shard order.
     *
     * @param release  owned shards to drain and release
     * @param campaign free shards to start campaigning for
     * @param abandon  campaigns to stop
     */
    record Plan(List<Integer> release, List<Integer> campaign, List<Integer> abandon) {
        static final Plan NOTHING = new Plan(List.of(), List.of(), List.of());

        boolean isEmpty() {
            return release.isEmpty() && campaign.isEmpty() && abandon.isEmpty();
        }
    }

    static Plan decide(View view) {
        if (!view.members().contains(view.me())) {
            return new Plan(List.of(), List.of(), sorted(view.pending()));
        }
        int quota = quota(view);
        List<Integer> release = new ArrayList<>();
        List<Integer> abandon = new ArrayList<>();
        List<Integer> campaign = new ArrayList<>();
        List<Integer> stillPending = new ArrayList<>();
        for (int shard : sorted(view.pending())) {
            HolderId owner = view.owners().get(shard);
            if (owner != null && !owner.equals(view.me())) {
                abandon.add(shard);
            } else {
                stillPending.add(shard);
            }
        }
        List<Integer> owned = sorted(view.owned());
        if (owned.size() > quota) {
            release.addAll(owned.subList(quota, owned.size()));
            abandon.addAll(stillPending);
        } else if (owned.size() + stillPending.size() > quota) {
            abandon.addAll(stillPending.subList(quota - owned.size(), stillPending.size()));
        } else {
            int wanted = quota - owned.size() - stillPending.size();
            int start = place(view);
            for (int i = 0; i < view.shardCount() && campaign.size() < wanted; i++) {
                int shard = (start + i) % view.shardCount();
                if (!view.owners().containsKey(shard) && !view.owned().contains(shard)
                        && !view.pending().contains(shard) && !view.leaving().contains(shard)) {
                    campaign.add(shard);
                }
            }
        }
        campaign.sort(null);
        abandon.sort(null);
        return new Plan(release, campaign, abandon);
    }

    /**
     * How many shards {@code view.me()} may own: ⌈M/N⌉ for the first {@code M mod N}
     * members by shards owned (ties by id), ⌊M/N⌋ for the rest.
     */
    static int quota(View view) {
        int members = view.members().size();
        int floor = view.shardCount() / members;
        int ceilings = view.shardCount() % members;
        Map<HolderId, Integer> counts = counts(view);
        List<HolderId> ranked = new ArrayList<>(view.members());
        ranked.sort(Comparator.<HolderId>comparingInt(member -> counts.getOrDefault(member, 0)).reversed()
                .thenComparing(HolderId::value));
        return ranked.indexOf(view.me()) < ceilings ? floor + 1 : floor;
    }

    /** Shards per member: this replica's own count from what it owns, the others' from the owners seen. */
    private static Map<HolderId, Integer> counts(View view) {
        Map<HolderId, Integer> counts = new HashMap<>();
        view.owners().forEach((shard, owner) -> {
            if (!owner.equals(view.me())) {
                counts.merge(owner, 1, Integer::sum);
            }
        });
        counts.put(view.me(), view.owned().size());
        return counts;
    }

    /** Where this member starts looking for free shards: its place among the members by id, spread over the ring. */
    private static int place(View view) {
        List<HolderId> byId = new ArrayList<>(view.members());
        byId.sort(Comparator.comparing(HolderId::value));
        return (int) ((long) byId.indexOf(view.me()) * view.shardCount() / byId.size());
    }

    private static List<Integer> sorted(Set<Integer> shards) {
        return new ArrayList<>(new TreeSet<>(shards));
    }
}
