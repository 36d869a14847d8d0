package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A replica's view of its set: facts from listings and events, and the plan it hands the rule. */
class ShardViewTest {

    private static final HolderId ME = new HolderId("me");
    private static final HolderId OTHER = new HolderId("other");
    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private final ShardKeys keys = new ShardKeys("rvs", 4);
    private final ShardView unlisted = ShardView.unlisted(keys, ME);

    private static LeaseView lease(String key, HolderId holder, long revision) {
        return new LeaseView(new LeaseKey(key), holder, new Fence(revision), NOW, NOW.plusSeconds(3),
                LeaseTtl.ofSeconds(3));
    }

    private static LeaseChange event(String key, LeaseChange.Kind kind, long sequence, HolderId holder) {
        return new LeaseChange(NOW, new LeaseKey(key), kind, sequence,
                kind.endsLease() ? Optional.empty() : Optional.of(holder),
                Optional.of(new Fence(sequence)), Optional.empty(), Optional.empty());
    }

    private static ShardBalance.Plan planAlone(ShardView view) {
        return view.plan(true, Set.of(), Set.of(), Set.of());
    }

    @Test
    void beforeAnyListingItTakesNothing() {
        assertTrue(planAlone(unlisted).isEmpty());
    }

    @Test
    void aMemberKeyHeldByAnotherHolderIsNoMember() {
        ShardView view = unlisted.listed(List.of(lease("rvs-member-eu", OTHER, 5)), 0);
        assertEquals(Set.of(), view.members());
    }

    @Test
    void keysOfAnotherSetUnderTheMemberPrefixCountNoGhostMembers() {
        ShardView view = unlisted.listed(List.of(lease("rvs-member-me", ME, 4),
                lease("rvs-member-eu-shard-0", ME, 5), lease("rvs-member-eu-shard-1", ME, 6),
                lease("rvs-member-eu-member-me", ME, 7)), 0);

        assertEquals(Set.of(ME), view.members());
        assertEquals(List.of(0, 1, 2, 3), planAlone(view).campaign());
    }

    @Test
    void aMemberKeyTakenOverByAnotherHolderEndsThatMembership() {
        ShardView view = unlisted.listed(List.of(lease("rvs-member-other", OTHER, 5)), 0)
                .changed(event("rvs-member-other", LeaseChange.Kind.ACQUIRED, 9, ME));
        assertEquals(Set.of(), view.members());
    }

    @Test
    void anEventAfterTheListingBeganStandsAgainstTheListingsOlderRead() {
        ShardView began = unlisted;
        long begunAt = began.step();
        ShardView view = began.changed(event("rvs-shard-2", LeaseChange.Kind.ACQUIRED, 10, OTHER))
                .listed(List.of(), begunAt);
        assertEquals(Map.of(2, OTHER), view.owners());
    }

    @Test
    void aListingShowingALaterWriteThanAnEventWins() {
        long begunAt = unlisted.step();
        ShardView view = unlisted.changed(event("rvs-shard-2", LeaseChange.Kind.RELEASED, 10, OTHER))
                .listed(List.of(lease("rvs-shard-2", OTHER, 12)), begunAt);
        assertEquals(Map.of(2, OTHER), view.owners());
    }

    @Test
    void aListingForgetsWhatItNoLongerShows() {
        ShardView view = unlisted.listed(List.of(lease("rvs-shard-1", OTHER, 3)), 0);
        view = view.listed(List.of(), view.step());
        assertEquals(Map.of(), view.owners());
    }

    @Test
    void anEventOlderThanWhatIsKnownChangesNothing() {
        ShardView view = unlisted.listed(List.of(lease("rvs-shard-1", OTHER, 20)), 0);
        assertEquals(view, view.changed(event("rvs-shard-1", LeaseChange.Kind.RELEASED, 19, OTHER)));
    }

    @Test
    void anAbandonedShardIsNotCampaignedForWhileTheServerHoldsItUnderThisReplicasId() {
        ShardView view = unlisted.listed(List.of(lease("rvs-shard-3", ME, 8)), 0).abandoned(3);
        view = view.listed(List.of(lease("rvs-shard-3", ME, 8)), view.step());
        assertEquals(List.of(0, 1, 2), planAlone(view).campaign());
    }

    @Test
    void anAbandonedShardIsCampaignedForOnceItsExpiryIsHeard() {
        ShardView view = unlisted.listed(List.of(lease("rvs-shard-3", ME, 8)), 0).abandoned(3)
                .changed(event("rvs-shard-3", LeaseChange.Kind.EXPIRED, 11, ME));
        assertEquals(List.of(0, 1, 2, 3), planAlone(view).campaign());
    }

    @Test
    void aListingBegunBeforeTheAbandonDoesNotFreeTheAbandonedShard() {
        ShardView listedOnce = unlisted.listed(List.of(lease("rvs-shard-3", ME, 8)), 0);
        long begunAt = listedOnce.step();
        ShardView view = listedOnce.abandoned(3).listed(List.of(), begunAt);
        assertTrue(!planAlone(view).campaign().contains(3), planAlone(view).toString());
    }

    @Test
    void aListingBegunAfterTheAbandonThatShowsTheShardFreeFreesIt() {
        ShardView view = unlisted.listed(List.of(lease("rvs-shard-3", ME, 8)), 0).abandoned(3);
        view = view.listed(List.of(), view.step());
        assertEquals(List.of(0, 1, 2, 3), planAlone(view).campaign());
    }

    @Test
    void aShardBeingDrainedIsNeitherOwnedForTheQuotaNorCampaignedFor() {
        ShardView view = unlisted.listed(List.of(lease("rvs-shard-0", ME, 8)), 0);
        ShardBalance.Plan plan = view.plan(true, Set.of(), Set.of(), Set.of(0));
        assertEquals(List.of(1, 2, 3), plan.campaign());
    }

    @Test
    void aReplicaWhoseMemberLeaseIsNotHeldTakesNothing() {
        ShardView view = unlisted.listed(List.of(lease("rvs-member-me", ME, 4)), 0);
        assertEquals(List.of(), view.plan(false, Set.of(), Set.of(), Set.of()).campaign());
    }
}
