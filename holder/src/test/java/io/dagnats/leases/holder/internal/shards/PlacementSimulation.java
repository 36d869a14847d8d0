package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.HolderId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Members planning rounds from one shared view until nothing is left to do: claims land at once,
 * then each round's moves are made together (in this model a round ends when its moves are done).
 * Checks on the way that no round exceeds the budget and that the plan converges.
 */
final class PlacementSimulation {

    /** The end state: quotas and counts per member, moves made, and what was over quota after the claims. */
    record Settled(Map<HolderId, Integer> quotas, Map<HolderId, Integer> counts, int moved, int minimumMoves) {
    }

    private PlacementSimulation() {
    }

    static Settled settle(int shards, Map<HolderId, Integer> capacities, Map<Integer, HolderId> start, int budget) {
        Map<HolderId, ShardPlacement.Member> members = new HashMap<>();
        capacities.forEach((id, capacity) -> members.put(id, new ShardPlacement.Member(id, capacity, true)));
        Map<Integer, HolderId> owners = new HashMap<>(start);
        int moved = 0;
        int minimum = -1;
        for (int round = 0; round < shards + 2; round++) {
            ShardPlacement.Plan plan = ShardPlacement.plan(new ShardPlacement.View(shards, members, owners, budget));
            plan.claims().forEach((member, claimed) -> claimed.forEach(shard -> owners.put(shard, member)));
            if (minimum < 0) {
                minimum = overQuota(plan.quotas(), owners);
            }
            List<ShardPlacement.Move> moves = plan.moves();
            assertTrue(moves.size() <= budget, "a round of " + moves.size() + " moves, budget " + budget);
            if (moves.isEmpty() && plan.claims().isEmpty()) {
                return new Settled(plan.quotas(), counts(members, owners), moved, minimum);
            }
            for (ShardPlacement.Move move : moves) {
                assertTrue(move.from().equals(owners.put(move.shard(), move.to())), "moved from a non-owner: " + move);
            }
            moved += moves.size();
        }
        throw new AssertionError("no convergence within " + (shards + 2) + " rounds");
    }

    private static int overQuota(Map<HolderId, Integer> quotas, Map<Integer, HolderId> owners) {
        Map<HolderId, Integer> counts = new HashMap<>();
        owners.values().forEach(owner -> counts.merge(owner, 1, Integer::sum));
        return quotas.entrySet().stream().mapToInt(entry -> Math.max(0, counts.getOrDefault(entry.getKey(), 0)
                - entry.getValue())).sum();
    }

    private static Map<HolderId, Integer> counts(Map<HolderId, ShardPlacement.Member> members, Map<Integer, HolderId> owners) {
        Map<HolderId, Integer> counts = new HashMap<>();
        members.keySet().forEach(member -> counts.put(member, 0));
        owners.values().forEach(owner -> counts.merge(owner, 1, Integer::sum));
        return counts;
    }
}
