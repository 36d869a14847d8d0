package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.holder.ShardBudget;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Placement by capacity as a pure function: quotas, claims of free shards, and budgeted rounds of moves. */
class ShardPlacementTest {

    private static final HolderId A = new HolderId("a");
    private static final HolderId B = new HolderId("b");
    private static final HolderId C = new HolderId("c");

    @Test
    void everyQuotaIsWithinOneShardOfItsExactShareAndTheyAddUpToTheSet() {
        Random random = new Random(31);
        for (int run = 0; run < 2_000; run++) {
            int shards = 1 + random.nextInt(500);
            List<ShardPlacement.Member> members = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(12); i < n; i++) {
                members.add(new ShardPlacement.Member(new HolderId("m" + i), 1 + random.nextInt(5), true));
            }
            long capacities = members.stream().mapToLong(ShardPlacement.Member::capacity).sum();
            Map<HolderId, Integer> quotas = ShardPlacement.quotas(shards, members, Map.of());
            assertEquals(shards, quotas.values().stream().mapToInt(Integer::intValue).sum());
            for (ShardPlacement.Member member : members) {
                double exact = (double) shards * member.capacity() / capacities;
                assertTrue(Math.abs(quotas.get(member.id()) - exact) < 1, member + " " + quotas + " of " + shards);
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"12, 4, 8", "13, 4, 9", "10000, 3333, 6667", "7, 2, 5", "1, 0, 1"})
    void aMemberOfCapacityTwoGetsTwiceTheShardsOfOneOfCapacityOne(int shards, int one, int two) {
        Map<HolderId, Integer> quotas = ShardPlacement.quotas(shards,
                List.of(new ShardPlacement.Member(A, 1, true), new ShardPlacement.Member(B, 2, true)), Map.of());
        assertEquals(Map.of(A, one, B, two), quotas);
    }

    @Test
    void equalRemaindersGoToTheMembersOverTheirFloorThenToTheLowestId() {
        // 10 shards over a, b, c of capacity 1: one of them gets 4; only c owns more than 3, so c keeps it.
        Map<HolderId, Integer> quotas = ShardPlacement.quotas(10, members(A, B, C),
                Map.of(A, List.of(0, 1, 2), B, List.of(3, 4, 5), C, List.of(6, 7, 8, 9)));
        assertEquals(Map.of(A, 3, B, 3, C, 4), quotas);
        assertEquals(Map.of(A, 4, B, 3, C, 3), ShardPlacement.quotas(10, members(A, B, C), Map.of()));
    }

    @Test
    void freeShardsAreClaimedAtOnceBeyondTheBudgetAndNeverTwice() {
        // b died holding 0..999: a and c take all of them in one plan, though the budget is 1 a round.
        Map<Integer, HolderId> owners = new HashMap<>();
        for (int shard = 1_000; shard < 3_000; shard++) {
            owners.put(shard, shard < 2_000 ? A : C);
        }
        ShardPlacement.Plan plan = ShardPlacement.plan(view(3_000, owners, 1, member(A, true), member(C, true)));
        assertEquals(500, plan.claimsOf(A).size());
        assertEquals(500, plan.claimsOf(C).size());
        Set<Integer> claimed = new HashSet<>(plan.claimsOf(A));
        plan.claimsOf(C).forEach(shard -> assertTrue(claimed.add(shard), "claimed twice: " + shard));
        assertTrue(plan.moves().isEmpty());
    }

    @Test
    void aSettledBalancedSetPlansNothing() {
        ShardPlacement.Plan plan = ShardPlacement.plan(view(4, Map.of(0, A, 1, A, 2, B, 3, B), 10, member(A, true),
                member(B, true)));
        assertTrue(plan.claims().isEmpty() && plan.moves().isEmpty(), plan.toString());
    }

    @Test
    void aNewcomerNeitherClaimsNorIsATargetUntilItSettlesAndItsShareIsNotLeftFree() {
        Map<Integer, HolderId> owners = Map.of(0, A, 1, A, 2, A);
        ShardPlacement.Plan unsettled = ShardPlacement.plan(view(4, owners, 10, member(A, true), member(B, false)));
        assertEquals(Map.of(A, List.of(3)), unsettled.claims(), "the settled member heals the free shard");
        assertTrue(unsettled.moves().isEmpty(), unsettled.toString());
        ShardPlacement.Plan settled = ShardPlacement.plan(view(4, owners, 10, member(A, true), member(B, true)));
        assertEquals(List.of(3), settled.claimsOf(B));
        assertEquals(List.of(new ShardPlacement.Move(2, A, B)), settled.moves());
    }

    @Test
    void membersThatStartTogetherClaimOnlyTheirSharesOnceSettled() {
        ShardPlacement.Plan first = ShardPlacement.plan(view(4, Map.of(), 10, member(A, false), member(B, false)));
        assertTrue(first.claims().isEmpty(), "the first to start does not take every shard: " + first);
        ShardPlacement.Plan settled = ShardPlacement.plan(view(4, Map.of(), 10, member(A, true), member(B, true)));
        assertEquals(Map.of(A, List.of(0, 1), B, List.of(2, 3)), settled.claims());
    }

    @Test
    void theShardsOfAMemberThatIsLeavingAreNeitherFreeNorMoved() {
        // c is leaving (no member of the placement): it drains its shards itself.
        ShardPlacement.Plan plan = ShardPlacement.plan(view(4, Map.of(0, C, 1, C, 2, A), 10, member(A, true),
                member(B, true)));
        assertEquals(List.of(3), plan.claimsOf(A));
        assertTrue(plan.claimsOf(B).isEmpty() && plan.moves().isEmpty(), plan.toString());
    }

    @Test
    void aRoundMovesAtMostTheBudgetTakingFromEachSourceInTurn() {
        Map<Integer, HolderId> owners = new HashMap<>();
        for (int shard = 0; shard < 12; shard++) {
            owners.put(shard, shard < 6 ? A : B);
        }
        ShardPlacement.Plan plan = ShardPlacement.plan(view(12, owners, 3, member(A, true), member(B, true),
                member(C, true)));
        assertEquals(List.of(new ShardPlacement.Move(5, A, C), new ShardPlacement.Move(11, B, C),
                new ShardPlacement.Move(4, A, C)), plan.moves());
    }

    @Test
    void anEleventhMemberTakesTheMinimumInRoundsWithinTheBudget() {
        Map<HolderId, Integer> capacities = new HashMap<>();
        Map<Integer, HolderId> owners = new HashMap<>();
        for (int i = 0; i < 10; i++) {
            capacities.put(new HolderId("m" + i), 1);
            for (int shard = i * 1_000; shard < (i + 1) * 1_000; shard++) {
                owners.put(shard, new HolderId("m" + i));
            }
        }
        capacities.put(new HolderId("m10"), 1);
        int budget = new ShardBudget(250, 0.1).perRound(10_000);
        assertEquals(909, PlacementSimulation.settle(10_000, capacities, owners, budget).moved());
    }

    @Test
    void anySpreadConvergesToItsQuotasMovingOnlyWhatIsOverThemAndNeverMoreThanTheBudgetARound() {
        Random random = new Random(44);
        for (int run = 0; run < 300; run++) {
            int shards = 1 + random.nextInt(300);
            Map<HolderId, Integer> capacities = new HashMap<>();
            int n = 1 + random.nextInt(8);
            for (int i = 0; i < n; i++) {
                capacities.put(new HolderId("m" + i), 1 + random.nextInt(4));
            }
            Map<Integer, HolderId> owners = new HashMap<>();
            for (int shard = 0; shard < shards; shard++) {
                if (random.nextInt(4) > 0) {
                    owners.put(shard, new HolderId("m" + random.nextInt(n)));
                }
            }
            int budget = 1 + random.nextInt(10);
            PlacementSimulation.Settled settled = PlacementSimulation.settle(shards, capacities, owners, budget);
            assertEquals(settled.minimumMoves(), settled.moved(), "moves beyond what was over quota");
            assertEquals(settled.quotas(), settled.counts());
        }
    }

    private static List<ShardPlacement.Member> members(HolderId... ids) {
        return java.util.Arrays.stream(ids).map(id -> new ShardPlacement.Member(id, 1, true)).toList();
    }

    private static ShardPlacement.Member member(HolderId id, boolean settled) {
        return new ShardPlacement.Member(id, 1, settled);
    }

    private static ShardPlacement.View view(int shards, Map<Integer, HolderId> owners, int budget,
            ShardPlacement.Member... members) {
        Map<HolderId, ShardPlacement.Member> byId = new HashMap<>();
        for (ShardPlacement.Member member : members) {
            byId.put(member.id(), member);
        }
        return new ShardPlacement.View(shards, byId, owners, budget);
    }
}
