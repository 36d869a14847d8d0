package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.HolderId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The balancing rule as a pure function: single decisions, and whole sets of
 * replicas deciding in turn until nobody has anything left to do (a campaign for
 * a free shard wins at once in this model; the real race is the lease service's).
 */
class ShardBalanceTest {

    private static final HolderId A = new HolderId("a");
    private static final HolderId B = new HolderId("b");
    private static final HolderId C = new HolderId("c");
    private static final HolderId D = new HolderId("d");

    @Test
    void aLoneMemberCampaignsForEveryFreeShard() {
        ShardBalance.Plan plan = ShardBalance.decide(view(4, A, Set.of(A), Map.of(), Set.of(), Set.of()));
        assertEquals(List.of(0, 1, 2, 3), plan.campaign());
        assertTrue(plan.release().isEmpty());
    }

    @Test
    void aReplicaOverItsQuotaGivesUpItsHighestShards() {
        ShardBalance.Plan plan = ShardBalance.decide(view(12, A, Set.of(A, B, C, D),
                owners(Map.of(B, List.of(4, 5, 6, 7), C, List.of(8, 9, 10, 11))), Set.of(0, 1, 2, 3), Set.of()));
        // 4 of 12 with 4 members: one too many.
        assertEquals(List.of(3), plan.release());
        assertTrue(plan.campaign().isEmpty());
    }

    @Test
    void aReplicaAtItsQuotaCampaignsForNothingEvenWithShardsFree() {
        ShardBalance.Plan plan = ShardBalance.decide(view(12, A, Set.of(A, B, C, D),
                owners(Map.of(B, List.of(4, 5, 6, 7))), Set.of(0, 1, 2), Set.of()));
        assertEquals(ShardBalance.Plan.NOTHING, plan);
    }

    @Test
    void aCampaignForAShardAnotherHolderTookIsAbandoned() {
        ShardBalance.Plan plan = ShardBalance.decide(view(4, A, Set.of(A, B),
                owners(Map.of(B, List.of(1))), Set.of(0), Set.of(1)));
        assertEquals(List.of(1), plan.abandon());
        assertEquals(1, plan.campaign().size(), "one more free shard instead: " + plan);
    }

    @Test
    void campaignsBeyondTheQuotaAreAbandonedHighestFirst() {
        ShardBalance.Plan plan = ShardBalance.decide(view(4, A, Set.of(A, B), Map.of(), Set.of(0), Set.of(1, 2, 3)));
        assertEquals(List.of(2, 3), plan.abandon());
        assertTrue(plan.campaign().isEmpty());
    }

    @Test
    void aReplicaThatIsNoMemberKeepsWhatItOwnsAndStopsCampaigning() {
        ShardBalance.Plan plan = ShardBalance.decide(view(4, A, Set.of(B), Map.of(), Set.of(0, 1), Set.of(2)));
        assertEquals(new ShardBalance.Plan(List.of(), List.of(), List.of(2)), plan);
    }

    @Test
    void theCeilingGoesToTheMembersThatOwnTheMostThenToTheLowestId() {
        // 10 shards, 4 members: two may own 3 (b and c, who own the most), two own 2.
        Map<Integer, HolderId> owned = owners(Map.of(B, List.of(3, 4, 5), C, List.of(6, 7)));
        assertEquals(3, ShardBalance.quota(view(10, B, Set.of(A, B, C, D), owned, Set.of(3, 4, 5), Set.of())));
        assertEquals(3, ShardBalance.quota(view(10, C, Set.of(A, B, C, D), owned, Set.of(6, 7), Set.of())));
        assertEquals(2, ShardBalance.quota(view(10, A, Set.of(A, B, C, D), owned, Set.of(), Set.of())));
        assertEquals(2, ShardBalance.quota(view(10, D, Set.of(A, B, C, D), owned, Set.of(), Set.of())));
    }

    @Test
    void threeReplicasSettleAtFourAndAFourthJoiningMovesExactlyThree() {
        Simulation set = new Simulation(12);
        set.join(A, B, C);
        set.settle();
        assertEquals(Map.of(A, 4, B, 4, C, 4), set.counts());
        set.moves = 0;
        set.join(D);
        set.settle();
        assertEquals(Map.of(A, 3, B, 3, C, 3, D, 3), set.counts());
        assertEquals(3, set.moves);
    }

    @Test
    void aReplicaThatLeavesHasItsShardsSpreadOverTheRest() {
        Simulation set = new Simulation(12);
        set.join(A, B, C, D);
        set.settle();
        set.moves = 0;
        set.leave(D);
        set.settle();
        assertEquals(Map.of(A, 4, B, 4, C, 4), set.counts());
        assertEquals(3, set.moves, "only the departed replica's shards move");
    }

    /** Settles for M mod N ≠ 0 too, each owning ⌈M/N⌉ or ⌊M/N⌋, and a join or leave moves only what it must. */
    @ParameterizedTest
    @CsvSource({"12,5", "10,3", "7,4", "3,5", "100,7", "1,2", "16,6"})
    void everySpreadSettlesAndMovesOnlyWhatItMust(int shards, int replicas) {
        Simulation set = new Simulation(shards);
        for (int i = 0; i < replicas; i++) {
            set.join(new HolderId("r" + i));
        }
        set.settle();
        assertSpread(set, shards, replicas);

        set.moves = 0;
        Map<HolderId, Integer> before = set.counts();
        set.join(new HolderId("new"));
        set.settle();
        assertSpread(set, shards, replicas + 1);
        int mustMove = before.values().stream().mapToInt(count -> Math.max(0, count - (shards + replicas) / (replicas + 1)))
                .sum();
        assertTrue(set.moves <= Math.max(mustMove, set.counts().getOrDefault(new HolderId("new"), 0)),
                "moves " + set.moves + " for " + set.counts());
        assertEquals(set.counts().getOrDefault(new HolderId("new"), 0), set.moves,
                "every move is a shard the newcomer takes");

        set.moves = 0;
        Map<HolderId, Integer> beforeLeave = set.counts();
        set.leave(new HolderId("r0"));
        set.settle();
        assertSpread(set, shards, replicas);
        assertEquals(beforeLeave.getOrDefault(new HolderId("r0"), 0), set.moves, "only the leaver's shards move");
    }

    private static void assertSpread(Simulation set, int shards, int replicas) {
        Map<HolderId, Integer> counts = set.counts();
        assertEquals(shards, counts.values().stream().mapToInt(Integer::intValue).sum(), "every shard owned: " + counts);
        for (HolderId member : set.members) {
            int count = counts.getOrDefault(member, 0);
            assertTrue(count == shards / replicas || count == (shards + replicas - 1) / replicas,
                    member + " owns " + count + " of " + shards + " with " + replicas + " replicas: " + counts);
        }
    }

    private static ShardBalance.View view(int shards, HolderId me, Set<HolderId> members,
            Map<Integer, HolderId> owners, Set<Integer> owned, Set<Integer> pending) {
        return new ShardBalance.View(shards, me, members, owners, owned, pending);
    }

    private static Map<Integer, HolderId> owners(Map<HolderId, List<Integer>> byHolder) {
        Map<Integer, HolderId> owners = new HashMap<>();
        byHolder.forEach((holder, shards) -> shards.forEach(shard -> owners.put(shard, holder)));
        return owners;
    }

    /** Replicas that see the set exactly and decide one at a time. */
    private static final class Simulation {
        final int shards;
        final List<HolderId> members = new ArrayList<>();
        final Map<Integer, HolderId> owners = new TreeMap<>();
        final Map<Integer, HolderId> lastOwner = new HashMap<>();
        int moves;

        Simulation(int shards) {
            this.shards = shards;
        }

        void join(HolderId... joining) {
            members.addAll(List.of(joining));
        }

        void leave(HolderId leaving) {
            members.remove(leaving);
            owners.values().removeIf(leaving::equals);
        }

        void settle() {
            for (int round = 0; round < 100; round++) {
                boolean acted = false;
                for (HolderId member : List.copyOf(members)) {
                    Set<Integer> owned = IntStream.range(0, shards).filter(s -> member.equals(owners.get(s)))
                            .boxed().collect(Collectors.toSet());
                    ShardBalance.Plan plan = ShardBalance.decide(
                            new ShardBalance.View(shards, member, Set.copyOf(members), owners, owned, Set.of()));
                    plan.release().forEach(owners::remove);
                    for (int shard : plan.campaign()) {
                        if (owners.putIfAbsent(shard, member) == null) {
                            HolderId previous = lastOwner.put(shard, member);
                            if (previous != null && !previous.equals(member)) {
                                moves++;
                            }
                        }
                    }
                    acted |= !plan.isEmpty();
                }
                if (!acted) {
                    return;
                }
            }
            throw new AssertionError("did not settle in 100 rounds: " + owners);
        }

        Map<HolderId, Integer> counts() {
            Map<HolderId, Integer> counts = new HashMap<>();
            owners.values().forEach(owner -> counts.merge(owner, 1, Integer::sum));
            return counts;
        }
    }
}
