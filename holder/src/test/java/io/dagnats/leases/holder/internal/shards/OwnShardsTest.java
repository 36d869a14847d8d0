package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The safety rules of a member's own attached shards, from its own record (the listener's calls
 * and {@link OwnShards#believed}): owned only from an attach granted under the member tenure held
 * now, never past the member's belief, and no longer believed (and told so) before a move is sent.
 */
class OwnShardsTest extends OwnShardsFixture {

    OwnShardsTest() {
        super(Duration.ofSeconds(3));
    }

    @Test
    void aShardIsOwnedFromItsAttachGrantedAndNoEarlier() {
        own.claim(3, TENURE);
        assertEquals(Set.of(), own.believed(member));
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(77), TENURE));
        assertEquals(Set.of(3), own.believed(member));
        assertEquals(List.of("attach 3", "assigned 3 at 77"), record);
    }

    @Test
    void aGrantUnderATenureTheMemberNoLongerHoldsIsNoOwnership() {
        own.claim(3, TENURE);
        member = Optional.of(memberTenure(new Fence(90))); // the member lease was lost and taken again meanwhile
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(77), TENURE));
        assertEquals(Set.of(), own.believed(member));
        assertEquals(List.of("attach 3"), record);
    }

    @Test
    void beliefInEveryShardEndsTheMomentTheMemberBeliefDoes() {
        owned(3, 77);
        owned(4, 78);
        member = Optional.empty(); // the member's deadline passed: before any callback runs
        assertEquals(Set.of(), own.believed(member));
        own.memberEnded(StopReason.DEADLINE_PASSED);
        assertTrue(record.containsAll(List.of("revoked 3 DEADLINE_PASSED", "revoked 4 DEADLINE_PASSED")), record.toString());
    }

    @Test
    void aMoveEndsBeliefAndTellsTheListenerBeforeTheMoveIsSent() {
        owned(3, 77);
        own.handOver(3, TARGET);
        assertEquals(Set.of(3), own.believed(member), "owned while it drains");
        drainThreads.get(0).run();
        loop.runDue();
        assertEquals(List.of("attach 3", "assigned 3 at 77", "revoked 3 HANDED_OVER", "move 3 at 77 to other believed []"),
                record);
        answer("move 3", new ShardCalls.Moved.Done(new Fence(80)));
        own.confirm(3, TENURE, 77);
        assertEquals(4, record.size(), "a moved shard is not attached again while the view still shows it here");
    }

    @Test
    void aDrainPastItsBoundParksTheShardOwnedByNobodyForATtlThenDetachesIt() {
        owned(3, 77);
        own.handOver(3, TARGET);
        loop.advance(TTL);
        assertEquals(Set.of(), own.believed(member));
        assertEquals("revoked 3 ABANDONED", record.get(record.size() - 1));
        own.detachParked(loop.nanoTime());
        assertTrue(record.stream().noneMatch(line -> line.startsWith("detach") || line.startsWith("move")), record.toString());
        loop.advance(TTL);
        own.detachParked(loop.nanoTime());
        assertEquals("detach 3 at 77", record.get(record.size() - 1));
    }

    @Test
    void leavingDetachesEachShardAsSoonAsItsOwnDrainReturnsAfterBeliefEnded() {
        owned(3, 77);
        owned(4, 78);
        own.drainAll();
        drainThreads.forEach(Runnable::run); // in shard order: drainAll starts them so
        loop.runDue();
        assertEquals(List.of("revoked 3 RELEASED", "detach 3 at 77", "revoked 4 RELEASED", "detach 4 at 78"),
                record.subList(4, record.size()));
        assertEquals(Set.of(), own.believed(member));
    }

    @Test
    void anAttachRefusedIsNotAskedAgainUntilTheNextLook() {
        own.claim(3, TENURE);
        answer("attach 3", new ShardCalls.Attached.HeldByOther(new HolderId("other")));
        own.claim(3, TENURE);
        assertEquals(List.of("attach 3"), record);
        loop.advance(TTL.dividedBy(3));
        own.claim(3, TENURE);
        assertEquals(List.of("attach 3", "attach 3"), record);
    }

    @Test
    void aShardWhoseKeyIsWrittenByAnyoneElseSinceItsGrantIsNoLongerBelievedAndItsListenerIsToldLost() {
        owned(3, 77);
        owned(4, 78);
        seen = seen.changed(KEYS.shard(3), write(Optional.empty(), 80, 0), false, loop.nanoTime()); // an operator's revoke
        assertEquals(Set.of(4), own.believed(member), "belief ends as the event is seen, before anyone is told");
        own.forgetGone(seen);
        own.forgetGone(seen);
        assertEquals(List.of("revoked 3 LOST"), record.subList(4, record.size()), "told once");
        seen = seen.changed(KEYS.shard(4), write(Optional.of(new HolderId("other")), 81, 0), false, loop.nanoTime());
        own.forgetGone(seen);
        assertEquals(Set.of(), own.believed(member), "attached by another");
        assertEquals("revoked 4 LOST", record.get(record.size() - 1));
    }

    @Test
    void aListingBegunAfterTheGrantThatDoesNotShowTheShardHereEndsBeliefThoughItsEventWasLost() {
        owned(3, 77);
        owned(4, 78);
        long grantedAt = loop.nanoTime();
        seen = seen.listed(Map.of(KEYS.shard(4), write(Optional.of(ME), 78, SetFacts.Seen.LISTED)), seen.step(),
                grantedAt - 1, grantedAt);
        own.forgetGone(seen);
        assertEquals(Set.of(3, 4), own.believed(member), "a listing begun before the grant says nothing of it");
        loop.advance(TTL.dividedBy(3));
        seen = seen.listed(Map.of(KEYS.shard(4), write(Optional.of(ME), 78, SetFacts.Seen.LISTED)), seen.step(),
                loop.nanoTime(), loop.nanoTime());
        assertEquals(Set.of(4), own.believed(member));
        own.forgetGone(seen);
        assertEquals("revoked 3 LOST", record.get(record.size() - 1));
    }

    @Test
    void anEventOfAWriteOlderThanTheGrantSaysNothing() {
        owned(3, 77);
        seen = seen.changed(KEYS.shard(3), write(Optional.empty(), 70, 0), false, loop.nanoTime());
        own.forgetGone(seen);
        assertEquals(Set.of(3), own.believed(member));
        assertEquals(2, record.size(), record.toString());
    }

    @Test
    void aGrantAtOrBelowAFenceThisProcessAlreadyOwnedTheShardAtIsTheStoreGoingBackNotOwnership() {
        owned(3, 77);
        own.handOver(3, TARGET);
        drainThreads.get(0).run();
        loop.runDue();
        ((CompletableFuture<?>) answers.remove("move 3")).completeExceptionally(new RuntimeException("timed out"));
        loop.runDue();
        // The move's answer was lost, then the store went back to before it: the view shows 3 here at 77 again.
        own.confirm(3, TENURE, 77);
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(77), TENURE));
        assertEquals(Set.of(), own.believed(member), "fence 77 was this process's already: not owned again at it");
        assertEquals(List.of("attach 3", "assigned 3 at 77", "revoked 3 HANDED_OVER", "move 3 at 77 to other believed []",
                "attach 3", "revoked 3 STORE_WENT_BACK", "detach 3 at 77"), record);
    }

    @Test
    void aShardWhoseBeliefEndedWithoutAnyWriteOfItIsOwnedAgainAtItsOwnFenceAsTheKeepersAcquireIs() {
        owned(3, 77);
        own.memberEnded(StopReason.DEADLINE_PASSED); // dagnats was slow; the member lease lived on, unchanged
        own.confirm(3, TENURE, 77);
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(77), TENURE));
        assertEquals(Set.of(3), own.believed(member));
        assertEquals(List.of("attach 3", "assigned 3 at 77", "revoked 3 DEADLINE_PASSED", "attach 3", "assigned 3 at 77"),
                record);
    }

    @Test
    void aMoveAnsweredNotWrittenLeavesTheFenceOwnableAndAGrantBelowTheFloorNeverIs() {
        owned(3, 77);
        own.handOver(3, TARGET);
        drainThreads.get(0).run();
        loop.runDue();
        answer("move 3", new ShardCalls.Moved.NoSuccessor());
        own.confirm(3, TENURE, 77);
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(77), TENURE));
        assertEquals(Set.of(3), own.believed(member), "nothing was written: the same record");
        own.memberEnded(StopReason.DEADLINE_PASSED);
        own.confirm(3, TENURE, 70);
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(70), TENURE));
        assertEquals(Set.of(), own.believed(member));
        assertEquals(List.of("attach 3", "revoked 3 STORE_WENT_BACK", "detach 3 at 70"),
                record.subList(record.size() - 3, record.size()));
    }
}
