package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
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
import java.util.concurrent.CompletableFuture;

/**
 * A member's own shards ({@link OwnShards}) on a manual loop, with scripted calls whose answers the
 * test gives, and the member's record (the listener's calls): what the own-shard tests share.
 */
abstract class OwnShardsFixture {

    static final Duration TTL = Duration.ofSeconds(3);
    static final HolderId ME = new HolderId("me");
    /** This process's incarnation: another process under {@link #ME} is another holder (ADR-034). */
    static final Incarnation MINE = new Incarnation("this-run");
    static final Fence TENURE = new Fence(40);
    static final ShardKeys KEYS = new ShardKeys("rvs", 8);
    static final HolderId OTHER = new HolderId("other");
    static final ShardCalls.Target TARGET = new ShardCalls.Target(OTHER, Optional.empty(),
            new LeaseKey("rvs-member-other"), new Fence(50));

    private final Duration memberLife;
    final ManualScheduler loop = new ManualScheduler();
    final List<String> record = new ArrayList<>();
    final Map<String, CompletableFuture<?>> answers = new HashMap<>();
    final List<Runnable> drainThreads = new ArrayList<>();
    Optional<Tenure> member;
    SetFacts seen = SetFacts.unlisted(KEYS);
    final OwnShards own;

    /** @param memberLife how long the member tenure is believed from the start */
    OwnShardsFixture(Duration memberLife) {
        this.memberLife = memberLife;
        this.member = Optional.of(memberTenure(TENURE));
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
        own = new OwnShards(KEYS, new Claimant(ME, Optional.of(MINE)), new RecordingCalls(), listener, drains, loop, loop,
                TTL, () -> member, () -> true, () -> { }, () -> seen, new FenceFloors());
    }

    static SetFacts.Seen write(Optional<HolderId> holder, long revision, long step) {
        return new SetFacts.Seen(holder, Optional.empty(), revision, Optional.of(TENURE), Optional.empty(), step);
    }

    void owned(int shard, long revision) {
        own.claim(shard, TENURE);
        answer("attach " + shard, new ShardCalls.Attached.Granted(new Fence(revision), TENURE));
    }

    @SuppressWarnings("unchecked")
    <T> void answer(String call, T answer) {
        ((CompletableFuture<T>) answers.remove(call)).complete(answer);
        loop.runDue();
    }

    Tenure memberTenure(Fence start) {
        return new Tenure(new LeaseKey("rvs-member-me"), ME, start, start, loop.nanoTime() + memberLife.toNanos());
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
            return sent("move " + shard, "move " + shard + " at " + revision.revision() + " to " + to.holder().value()
                    + " believed " + own.believed(member));
        }

        private <T> CompletableFuture<T> sent(String call, String line) {
            record.add(line);
            CompletableFuture<T> answer = new CompletableFuture<>();
            answers.put(call, answer);
            return answer;
        }
    }
}
