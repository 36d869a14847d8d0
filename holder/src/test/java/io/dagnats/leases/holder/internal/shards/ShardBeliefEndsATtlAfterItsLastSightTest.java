package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * A shard has no renew of its own, so its owner learns of a revoke only from the event or from a
 * listing begun after its grant; when both fail, belief still ends a TTL after the grant or the
 * last listing that showed the set. Found by the s33 third review; same harness as OwnShardsTest.
 */
class ShardBeliefEndsATtlAfterItsLastSightTest {

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

    ShardBeliefEndsATtlAfterItsLastSightTest() {
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
     * Interleaving: A owns shard 3 at 77. An operator revokes the shard key (80) and B attaches it
     * (81); A's connection to dagnats drops those events (a slow consumer, a reconnect), and A's
     * listings of the set time out (the benchmark saw them time out under load; "it decides from
     * the events it saw"). A's member lease renews all along, so A believes shard 3 at 77 for as
     * long as the listings fail (three TTLs here) while B believes it at 81: two owners, with no
     * bound. operating.md promises the listing every third of the TTL ends the belief; a listing
     * that fails ends nothing.
     */
    @Test
    void aShardIsNotBelievedForATtlWithNoSightOfTheSetSinceItsGrant() {
        owned(3, 77);
        seen = seen.listed(Map.of(KEYS.shard(3), write(Optional.of(ME), 77, SetFacts.Seen.LISTED)), seen.step(),
                loop.nanoTime(), loop.nanoTime()); // the last listing to succeed, right after the grant
        for (int look = 0; look < 9; look++) {
            loop.advance(TTL.dividedBy(3)); // a listing begins and times out; the events of 80 and 81 were lost
            own.forgetGone(seen);
        }

        assertEquals(Set.of(), own.believed(member), "three TTLs with no sight of the key since: " + record);
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
