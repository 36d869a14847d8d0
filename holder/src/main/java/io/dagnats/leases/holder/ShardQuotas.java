package io.dagnats.leases.holder;

import io.dagnats.leases.domain.HolderId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The share of a shard set each member aims for (ADR-044), public so that the operator CLI shows
 * the very targets the members plan by. By largest remainder of M·c/Σc: each member gets the floor
 * of its exact share, and the shards left over go one each to the largest fractional remainders
 * (compared exactly, as M·c mod Σc), equal remainders first to members that own more than their
 * floor now, then to the lowest holder id. Every member is within one shard of its exact share; a
 * settled spread stays where it is; and the order does not change while a round's moves lower the
 * sources' counts, so no later round moves a shard back.
 */
public final class ShardQuotas {

    private ShardQuotas() {
    }

    /**
     * @param capacities each member's capacity (at least 1)
     * @param owned      how many shards each member owns now (absent: none)
     */
    public static Map<HolderId, Integer> of(int shardCount, Map<HolderId, Integer> capacities, Map<HolderId, Integer> owned) {
        long total = capacities.values().stream().mapToLong(Integer::longValue).sum();
        Map<HolderId, Integer> quotas = new HashMap<>();
        if (total == 0) {
            return quotas;
        }
        int given = 0;
        for (Map.Entry<HolderId, Integer> member : capacities.entrySet()) {
            int floor = (int) ((long) shardCount * member.getValue() / total);
            quotas.put(member.getKey(), floor);
            given += floor;
        }
        List<HolderId> ranked = new ArrayList<>(capacities.keySet());
        ranked.sort(Comparator.<HolderId>comparingLong(member -> (long) shardCount * capacities.get(member) % total).reversed()
                .thenComparing(member -> owned.getOrDefault(member, 0) > quotas.get(member) ? 0 : 1)
                .thenComparing(HolderId::value));
        for (int i = 0; i < shardCount - given; i++) {
            quotas.merge(ranked.get(i), 1, Integer::sum);
        }
        return quotas;
    }
}
