package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.dagnats.leases.domain.HolderId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rounds of moves that do not overlap: a round is kept as planned until every move is done or void, or it times out. */
class ShardRoundTest {

    private static final HolderId A = new HolderId("a");
    private static final HolderId B = new HolderId("b");
    private static final HolderId C = new HolderId("c");
    private static final long TIMEOUT = 1_000;

    @Test
    void aRoundIsKeptAsPlannedWhileAnyOfItsMovesIsUnderWay() {
        Map<Integer, HolderId> owners = new HashMap<>(Map.of(0, A, 1, A, 2, A, 3, A, 4, A, 5, A));
        ShardRound round = ShardRound.NONE.next(view(owners, 2, A, B), 10, TIMEOUT);
        assertEquals(List.of(new ShardPlacement.Move(5, A, B), new ShardPlacement.Move(4, A, B)), round.moves());
        owners.put(5, B);
        // Re-planned now, the view would ask for two more moves (4 and 3); the round still has 4 under way.
        assertSame(round, round.next(view(owners, 2, A, B), 20, TIMEOUT));
        assertEquals(List.of(new ShardPlacement.Move(4, A, B)), round.pendingFrom(A, view(owners, 2, A, B)));
        owners.put(4, B);
        ShardRound following = round.next(view(owners, 2, A, B), 30, TIMEOUT);
        assertEquals(List.of(new ShardPlacement.Move(3, A, B)), following.moves());
    }

    @Test
    void aMoveWhoseTargetLeftOrWhoseShardWasFreedNoLongerHoldsTheRound() {
        Map<Integer, HolderId> owners = new HashMap<>(Map.of(0, A, 1, A, 2, A, 3, A, 4, A, 5, A));
        ShardRound round = ShardRound.NONE.next(view(owners, 2, A, B, C), 10, TIMEOUT);
        assertEquals(2, round.moves().size());
        owners.remove(round.moves().get(0).shard());
        ShardRound afterLeaving = round.next(view(owners, 2, A, C), 20, TIMEOUT);
        assertNotSame(round, afterLeaving);
    }

    @Test
    void aRoundThatCannotFinishEndsAtItsTimeout() {
        Map<Integer, HolderId> owners = Map.of(0, A, 1, A, 2, A, 3, A, 4, A, 5, A);
        ShardRound round = ShardRound.NONE.next(view(owners, 1, A, B), 10, TIMEOUT);
        assertSame(round, round.next(view(owners, 1, A, B), 10 + TIMEOUT - 1, TIMEOUT));
        ShardRound again = round.next(view(owners, 1, A, B), 10 + TIMEOUT, TIMEOUT);
        assertNotSame(round, again);
        assertEquals(round.moves(), again.moves(), "planned afresh from the same view");
    }

    private static ShardPlacement.View view(Map<Integer, HolderId> owners, int budget, HolderId... members) {
        Map<HolderId, ShardPlacement.Member> byId = new HashMap<>();
        for (HolderId member : members) {
            byId.put(member, new ShardPlacement.Member(member, 1, true));
        }
        return new ShardPlacement.View(6, byId, owners, budget);
    }
}
