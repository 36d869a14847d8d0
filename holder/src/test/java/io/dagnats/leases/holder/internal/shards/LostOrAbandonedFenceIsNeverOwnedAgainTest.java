package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.ManualScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The rule: a shard whose belief ended by a write of its key not granting it here (LOST), or whose
 * drain was abandoned (parked for a TTL), is never owned again at the fence it was owned at; only
 * belief ended with no write seen or sent (OwnShardsTest) may own the same record again. Found in
 * review of s33-shards (8a925d1, "no write by this process" taken as "no write by anyone"). Same
 * harness as OwnShardsTest.
 */
class LostOrAbandonedFenceIsNeverOwnedAgainTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final HolderId ME = new HolderId("me");
    private static final HolderId OTHER = new HolderId("other");
    private static final Fence TENURE = new Fence(40);
    private static final ShardKeys KEYS = new ShardKeys("rvs", 8);
    private static final ShardCalls.Target TARGET = new ShardCalls.Target(OTHER, Optional.empty(),
            new LeaseKey("rvs-member-other"), new Fence(50));

    private final ManualScheduler loop = new ManualScheduler();
    private final List<String> record = new ArrayList<>();
    private final Map<String, CompletableFuture<?>> answers = new HashMap<>();
    private final List<Runnable> drainThreads = new ArrayList<>();
    private Optional<Tenure> member = Optional.of(memberTenure(TENURE));
    private SetFacts seen = SetFacts.unlisted(KEYS);
    private final OwnShards own;

    LostOrAbandonedFenceIsNeverOwnedAgainTest() {
        ShardListener listener = new ShardListener() {
            @Override
            public void shardAssigned(int shard, Tenure tenure) {
                record.add("assigned " + shard + " at " + tenure.fence().revision());
            }

            @Override
            public void shardRevoked(int shard, StopReason why) {
                record.add("revoked " + shard + " " + why);
            }
        };
        ShardDrains drains = new ShardDrains("rvs", listener, TTL, loop, loop, runnable -> {
            drainThreads.add(runnable);
            return new Thread(() -> { });
        });
        own = new OwnShards(KEYS, ME, new RecordingCalls(), listener, drains, loop, loop, TTL, () -> member, () -> true,
                () -> { }, () -> seen, new FenceFloors());
    }

    /**
     * Interleaving: member A owns shard 3 at 77. An operator revokes the shard key (80) and member B
     * attaches it (81): A hears it and says LOST, B owns at 81. nats-server is killed -9 and comes
     * back without the revoke and B's attach (ADR-037); nobody has presented a fence yet, so no skip.
     * A's next listing shows 3 attached here at 77 (its member tenure lives), A confirms, and the
     * idempotent attach is granted at 77. 8a925d1 owns it again at 77 (not below the floor, not
     * spent): A believes at 77 while B still believes at 81 until its own next listing, and A reuses
     * a fence it had lost to a later one. Before 8a925d1 (at-or-below the floor) this was refused.
     */
    @Test
    void aShardLostToAnotherWriteIsNeverOwnedAgainAtItsOldFenceWhenTheStoreGoesBack() {
        owned(3, 77);
        seen = seen.changed(KEYS.shard(3), write(Optional.of(OTHER), 81, 0), false, loop.nanoTime());
        own.forgetGone(seen);
        assertEquals("revoked 3 LOST", record.get(record.size() - 1));

        loop.advance(TTL.dividedBy(3)); // the next listing, after the store went back
        seen = seen.listed(Map.of(KEYS.shard(3), write(Optional.of(ME), 77, SetFacts.Seen.LISTED)), seen.step(),
                loop.nanoTime(), loop.nanoTime());
        own.confirm(3, TENURE, 77);
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(77), TENURE));

        assertEquals(Set.of(), own.believed(member), "77 was lost to 81: owning at 77 again is the store going back");
        assertFalse(record.subList(2, record.size()).contains("assigned 3 at 77"), record.toString());
    }

    /**
     * Interleaving: A owns shard 3 at 77 and is asked to move it; the drain overruns its bound, so
     * the shard is parked (ABANDONED): "it may still act under its tenure, so the shard stays
     * attached here, owned by nobody" for a TTL. Meanwhile dagnats is slow, A's member deadline
     * passes (memberEnded forgets every state, the Parked one too), then the member's renew
     * succeeds in the same tenure. The view shows 3 here at 77, A confirms, the attach is granted
     * at 77 and 8a925d1 owns it again at once, while the abandoned drain may still act at 77.
     */
    @Test
    void aParkedShardIsNotOwnedAgainAtItsFenceBeforeItsWaitIsOver() {
        owned(3, 77);
        own.handOver(3, TARGET);
        loop.advance(TTL); // the drain's bound passes: parked, owned by nobody for a TTL
        assertEquals("revoked 3 ABANDONED", record.get(record.size() - 1));
        own.memberEnded(StopReason.DEADLINE_PASSED); // dagnats slow; the member lease lives on, unchanged

        own.confirm(3, TENURE, 77); // the member renewed in the same tenure; the view shows 3 here
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(77), TENURE));

        assertEquals(Set.of(), own.believed(member), "the abandoned drain may still act at 77 for a TTL");
        assertFalse(record.subList(2, record.size()).contains("assigned 3 at 77"), record.toString());
    }

    private static SetFacts.Seen write(Optional<HolderId> holder, long revision, long step) {
        return new SetFacts.Seen(holder, Optional.empty(), revision, Optional.of(TENURE), Optional.empty(), step);
    }

    private void owned(int shard, long revision) {
        own.claim(shard, TENURE);
        answer("attach " + shard, new ShardCalls.Attached.Granted(new Fence(revision), TENURE));
    }

    @SuppressWarnings("unchecked")
    private <T> void answer(String call, T answer) {
        ((CompletableFuture<T>) answers.remove(call)).complete(answer);
        loop.runDue();
    }

    private Tenure memberTenure(Fence start) {
        return new Tenure(new LeaseKey("rvs-member-me"), ME, start, start, loop.nanoTime() + 10 * TTL.toNanos());
    }

    private final class RecordingCalls implements ShardCalls {
        @Override
        public CompletableFuture<Attached> attach(LeaseKey key, LeaseKey memberKey, Fence memberTenure,
                Optional<String> value) {
            return sent("attach " + KEYS.shardOf(key).orElseThrow(), "attach " + KEYS.shardOf(key).orElseThrow());
        }

        @Override
        public CompletableFuture<Boolean> detach(LeaseKey key, Fence revision) {
            int shard = KEYS.shardOf(key).orElseThrow();
            return sent("detach " + shard, "detach " + shard + " at " + revision.revision());
        }

        @Override
        public CompletableFuture<Moved> move(LeaseKey key, Fence revision, Target to) {
            int shard = KEYS.shardOf(key).orElseThrow();
            return sent("move " + shard, "move " + shard + " at " + revision.revision() + " to " + to.holder().value());
        }

        private <T> CompletableFuture<T> sent(String call, String line) {
            record.add(line);
            CompletableFuture<T> answer = new CompletableFuture<>();
            answers.put(call, answer);
            return answer;
        }
    }
}
