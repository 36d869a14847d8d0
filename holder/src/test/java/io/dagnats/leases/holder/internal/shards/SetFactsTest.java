package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a member knows of an attached shard set: members with their tenures, capacities, live owners, settling. */
class SetFactsTest {

    private static final ShardKeys KEYS = new ShardKeys("rvs", 4);
    private static final HolderId A = new HolderId("a");
    private static final HolderId B = new HolderId("b");
    private static final long SETTLE = 1_000;

    @Test
    void aShardAttachedToAnEndedTenureOfItsMemberHasNoOwner() {
        SetFacts facts = SetFacts.unlisted(KEYS).listed(Map.of(
                KEYS.member(A), listed(A, 10, 10, null),
                KEYS.shard(0), listed(A, 11, 10, null),
                KEYS.shard(1), listed(A, 5, 4, null),
                KEYS.shard(2), listed(B, 12, 9, null)), 0, 0, 0);
        // shard 1 names a's tenure 4, a is at tenure 10; b is no member at all.
        assertEquals(Map.of(0, A), facts.owners());
    }

    @Test
    void aRenewKeepsTheMembersTenureAndItsExpiryFreesItsShardsAtOnce() {
        SetFacts facts = SetFacts.unlisted(KEYS).listed(Map.of(
                KEYS.member(A), listed(A, 10, 10, null),
                KEYS.shard(0), listed(A, 11, 10, null)), 0, 0, 0);
        facts = facts.changed(KEYS.member(A), event(A, 20), false, 1);
        assertEquals(Optional.of(new Fence(10)), facts.members().get(A).tenure());
        assertEquals(Map.of(0, A), facts.owners());
        facts = facts.changed(KEYS.member(A), new SetFacts.Seen(Optional.empty(), Optional.empty(), 30, Optional.empty(),
                Optional.empty(), 0), false, 2);
        assertTrue(facts.owners().isEmpty());
    }

    @Test
    void aMemberTakesPartWithItsCapacityAndIsSettledOnceSeenForTheSettleTime() {
        SetFacts facts = SetFacts.unlisted(KEYS).listed(Map.of(
                KEYS.member(A), listed(A, 10, 10, null),
                KEYS.capacity(A), listed(A, 11, 10, "2"),
                KEYS.member(B), listed(B, 12, 12, null)), 0, 100, 100);
        ShardPlacement.View early = facts.placement(100 + SETTLE - 1, SETTLE, 1);
        assertEquals(Map.of(A, new ShardPlacement.Member(A, 2, false)), early.members(), "b has no capacity key yet");
        facts = facts.listed(Map.of(KEYS.member(A), listed(A, 10, 10, null), KEYS.capacity(A), listed(A, 11, 10, "2")),
                facts.step(), 500, 500);
        assertTrue(facts.placement(100 + SETTLE, SETTLE, 1).members().get(A).settled(), "first seen at 100, not 500");
        assertFalse(facts.placement(100 + SETTLE, SETTLE, 1).members().containsKey(B));
    }

    @Test
    void eventsFoldedTogetherTeachWhatTheyTeachFoldedOneByOne() {
        SetFacts start = SetFacts.unlisted(KEYS).listed(Map.of(
                KEYS.member(A), listed(A, 10, 10, null),
                KEYS.shard(0), listed(A, 11, 10, null),
                KEYS.shard(1), listed(A, 12, 10, null)), 0, 0, 0);
        List<SetFacts.Change> heard = List.of(
                new SetFacts.Change(KEYS.shard(0), new SetFacts.Seen(Optional.empty(), Optional.empty(), 30,
                        Optional.empty(), Optional.empty(), 0), false),
                new SetFacts.Change(KEYS.shard(0), event(B, 20), false), // older than the freed write: nothing
                new SetFacts.Change(KEYS.shard(1), event(A, 31), false)); // a renew-like write keeps the tenure
        SetFacts oneByOne = start;
        for (SetFacts.Change change : heard) {
            oneByOne = oneByOne.changed(change.key(), change.seen(), change.beginsTenure(), 5);
        }
        SetFacts folded = start.changed(heard, 5);
        assertEquals(oneByOne, folded);
        assertEquals(Map.of(1, A), folded.owners());
        assertEquals(Optional.of(new Fence(10)), folded.shard(1).flatMap(SetFacts.Seen::tenure));
    }

    private static SetFacts.Seen listed(HolderId holder, long revision, long tenure, String value) {
        return new SetFacts.Seen(Optional.of(holder), Optional.empty(), revision, Optional.of(new Fence(tenure)),
                Optional.ofNullable(value), SetFacts.Seen.LISTED);
    }

    private static SetFacts.Seen event(HolderId holder, long revision) {
        return new SetFacts.Seen(Optional.of(holder), Optional.empty(), revision, Optional.empty(), Optional.empty(), 0);
    }
}
