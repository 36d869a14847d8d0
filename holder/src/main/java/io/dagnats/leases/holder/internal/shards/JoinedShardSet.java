package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import io.dagnats.leases.holder.internal.Daemons;
import io.dagnats.leases.holder.internal.KeyChanges;
import io.dagnats.leases.holder.internal.Scheduler;
import io.dagnats.leases.holder.internal.Waiting;
import io.dagnats.leases.holder.internal.keeper.KeptLeaseHandle;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@link ShardSet} a holder hands out: which shard keys to keep, and nothing else, for M shards
 * spread over the live replicas of a set, each owning ⌈M/N⌉ or ⌊M/N⌋ ({@link ShardBalance} has the rule).
 *
 * <p>Every shard is a lease ({@code <set>-shard-<i>}) kept through the holder, so ownership
 * follows the tenure rule and nothing else. Membership is a lease too ({@code <set>-member-<holder id>},
 * held by that holder). Its job is the loop, on a scheduler of its own: fold what {@link ShardSight}
 * sees into the {@link ShardView}, ask it for a plan, act on it. Nothing on the loop waits for the
 * network or a drain ({@link ShardDrains}); only a lease's close waits, for its release's answer.
 */
public final class JoinedShardSet implements ShardSet {

    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.ShardSet");
    /** What leaving may take beyond the drains: the member's and the shards' releases. */
    private static final Duration LEAVE_SLACK = Duration.ofSeconds(30);

    /** What this set needs of its holder: its id, its calls, and keeping a key. */
    private final ShardHolder holder;
    private final ShardKeys keys;
    private final Duration ttl;
    private final Duration drainBound;
    private final ShardListener listener;
    private final Scheduler loop;
    /** Stops the loop's scheduler once the set has left. */
    private final Runnable stopLoop;
    private final ShardDrains drains;
    /** Every shard key this replica keeps, owned, campaigned for or being drained. Written on the loop only. */
    private final Map<Integer, KeptLeaseHandle> kept = new ConcurrentHashMap<>();
    private final AtomicBoolean decisionQueued = new AtomicBoolean();
    /** Where the set stands: written by the first close (any thread) and on the loop, read on the loop. */
    private final AtomicReference<ShardSetPhase> phase = new AtomicReference<>(new ShardSetPhase.Member());
    /** Completed once the first close has left the set. */
    private final CompletableFuture<Void> left = new CompletableFuture<>();
    private final ShardSight sight;
    private volatile KeptLeaseHandle member;

    JoinedShardSet(ShardHolder holder, KeyChanges changes, ShardKeys keys, Duration ttl, Duration drainBound,
            ShardListener listener, Scheduler loop, Runnable stopLoop, MonotonicClock clock, ThreadFactory drainThreads) {
        this.holder = holder;
        this.keys = keys;
        this.ttl = ttl;
        this.drainBound = drainBound;
        this.listener = listener;
        this.loop = loop;
        this.stopLoop = stopLoop;
        this.drains = new ShardDrains(keys.set(), listener, drainBound, loop, clock, drainThreads);
        this.sight = new ShardSight(keys, holder.id(), holder.client(), changes, loop, ttl, this::decide);
    }

    /**
     * A set of {@code holder}'s, not started, its loop and drains on daemon threads of their own.
     *
     * @throws IllegalArgumentException when a member key would not fit, or {@code ttl} is no lease TTL
     */
    public static JoinedShardSet join(ShardHolder holder, KeyChanges changes, ShardKeys keys, Duration ttl,
            Duration drainBound, ShardListener listener, MonotonicClock clock) {
        keys.requireMemberKeyFor(holder.id());
        new LeaseTtl(ttl.toMillis());
        Objects.requireNonNull(drainBound, "drainBound");
        Objects.requireNonNull(listener, "listener");
        ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(Daemons.named("dagnats-shards-" + keys.set()));
        return new JoinedShardSet(holder, changes, keys, ttl, drainBound, listener, Scheduler.of(loop), loop::shutdownNow,
                clock, Daemons.named("dagnats-drain-" + keys.set()));
    }

    /** Joins the set: keeps the member lease, follows the shard keys, and looks at the set now and every ttl/3. */
    public void start() {
        sight.start();
        member = holder.keep(keys.member(holder.id()).value(), ttl, new OwnershipListener() {
            @Override
            public void becameOwner(Tenure tenure) {
                // A fresh look, not the view from before joining: replicas that start together
                // see each other, instead of the first one taking every shard to give most back.
                loop.execute(sight::lookAfresh);
            }

            @Override
            public void stoppedOwning(StopReason reason) {
                decideSoon();
            }
        });
    }

    @Override
    public String name() {
        return keys.set();
    }

    @Override
    public int shardCount() {
        return keys.shardCount();
    }

    @Override
    public Set<Integer> owned() {
        Set<Integer> owned = new TreeSet<>();
        kept.forEach((shard, lease) -> {
            if (lease.isOwner()) {
                owned.add(shard);
            }
        });
        return owned;
    }

    @Override
    public Optional<Tenure> tenure(int shard) {
        KeptLeaseHandle lease = kept.get(shard);
        return lease == null ? Optional.empty() : lease.tenure();
    }

    @Override
    public String shardKey(int shard) {
        return keys.shard(shard).value();
    }

    /** Decides on the loop soon, once however often asked meanwhile. */
    private void decideSoon() {
        if (decisionQueued.compareAndSet(false, true)) {
            loop.execute(() -> {
                decisionQueued.set(false);
                decide();
            });
        }
    }

    private void decide() {
        if (!(phase.get() instanceof ShardSetPhase.Member)) {
            return;
        }
        Set<Integer> owned = new HashSet<>();
        Set<Integer> pending = new HashSet<>();
        kept.forEach((shard, lease) -> {
            if (!drains.isDraining(shard)) {
                (lease.isOwner() ? owned : pending).add(shard);
            }
        });
        KeptLeaseHandle membership = member;
        ShardBalance.Plan plan = sight.view().plan(membership != null && membership.isOwner(), owned, pending, drains.shards());
        for (int shard : plan.abandon()) {
            KeptLeaseHandle lease = kept.get(shard);
            if (lease != null && !lease.isOwner() && !drains.isDraining(shard)) {
                kept.remove(shard).close();
            }
        }
        plan.release().forEach(this::giveUp);
        for (int shard : plan.campaign()) {
            kept.put(shard, holder.keep(keys.shard(shard).value(), ttl, new ShardOwnership(shard, listener, this::decideSoon)));
        }
    }

    /**
     * Drain, bounded, then release: the shard's work stops before another replica can get
     * its lease. A drain that overruns the bound may still act under the tenure it was given,
     * so its lease is not released but abandoned: ownership ends, the drain is interrupted,
     * and the server's TTL frees the key after that tenure's deadline.
     */
    private void giveUp(int shard) {
        KeptLeaseHandle lease = kept.get(shard);
        if (lease == null || drains.isDraining(shard)) {
            return;
        }
        Optional<Tenure> tenure = lease.tenure();
        if (tenure.isPresent()) {
            drains.start(shard, tenure.get(), this::drained, this::overran);
        } else {
            kept.remove(shard).close();
        }
    }

    private void drained(int shard) {
        kept.remove(shard).close();
        afterGivingUp();
    }

    private void overran(int shard) {
        kept.remove(shard).abandon();
        sight.abandoned(shard);
        afterGivingUp();
    }

    private void afterGivingUp() {
        if (phase.get() instanceof ShardSetPhase.Leaving) {
            leftIfDone();
        } else {
            decide();
        }
    }

    @Override
    public void close() {
        ShardSetPhase before = phase.getAndUpdate(ShardSetPhase::closedIfMember);
        if (before instanceof ShardSetPhase.Member) {
            loop.execute(this::leave);
        }
        // A rebalance's drains may be under way, then the leave's own, then the releases.
        if (!Waiting.uninterruptibly(left, drainBound.multipliedBy(2).plus(LEAVE_SLACK).plus(LEAVE_SLACK))) {
            LOG.log(System.Logger.Level.WARNING, "shard set " + keys.set() + " is still leaving");
        }
    }

    private void leave() {
        phase.set(new ShardSetPhase.Leaving());
        sight.stop();
        // The member lease first: the others' quotas rise now, so each shard released below is
        // taken as soon as its release event arrives, not only after the last one is drained.
        if (member != null) {
            member.close();
        }
        new TreeSet<>(kept.keySet()).forEach(this::giveUp);
        leftIfDone();
    }

    /** Once nothing is kept (every drain ended, released or abandoned), the set has left. */
    private void leftIfDone() {
        if (kept.isEmpty() && phase.get() instanceof ShardSetPhase.Leaving) {
            phase.set(new ShardSetPhase.Left());
            sight.close();
            left.complete(null);
            stopLoop.run();
        }
    }
}
