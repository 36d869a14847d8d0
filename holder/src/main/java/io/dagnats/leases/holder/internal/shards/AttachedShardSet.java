package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import io.dagnats.leases.holder.ShardSetOptions;
import io.dagnats.leases.holder.internal.Daemons;
import io.dagnats.leases.holder.internal.KeyChanges;
import io.dagnats.leases.holder.internal.Scheduler;
import io.dagnats.leases.holder.internal.Waiting;
import io.dagnats.leases.holder.internal.keeper.KeptLeaseHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link ShardSet} whose shards are keys attached to this member's lease (ADR-043, ADR-044): one
 * keep-alive, the member lease's renew, keeps every shard. The loop folds what {@link SetSight}
 * sees into {@link SetFacts}, plans by {@link ShardPlacement} and {@link ShardRound}, and acts
 * through {@link ShardCalls}; {@link OwnShards} holds where each of its own shards stands.
 *
 * <p>Safety, from this process's own record: a shard is owned from its attach answered granted above
 * every fence this process owned its key at ({@link ShardFloors}), while the member lease is held at
 * that member tenure, no longer than it, and only until the set sees its key written since by anyone
 * ({@link #owned}, {@link #tenure} derive both at every call); belief ends before a move or detach is
 * sent; a shard moved here is owned only after this member's own attach answers granted; before the
 * member lease is released, belief in every shard has ended.
 */
public final class AttachedShardSet implements ShardSet {

    private static final Duration LEAVE_SLACK = Duration.ofSeconds(30);

    private final ShardHolder holder;
    private final ShardKeys keys;
    private final Duration ttl;
    private final Duration drainBound;
    private final ShardSetOptions options;
    private final Scheduler loop;
    private final Runnable stopLoop;
    private final MonotonicClock clock;
    private final SetSight sight;
    private final OwnShards own;
    private final AtomicReference<ShardSetPhase> phase = new AtomicReference<>(new ShardSetPhase.Member());
    private final CompletableFuture<Void> left = new CompletableFuture<>();
    private final AtomicBoolean decisionQueued = new AtomicBoolean();
    private volatile KeptLeaseHandle member;
    private final CapacityKey capacity;
    private ShardRound round = ShardRound.NONE;

    AttachedShardSet(ShardHolder holder, Claimant self, ShardCalls calls, ShardKeys keys, Duration ttl,
            Duration drainBound, ShardSetOptions options, ShardListener listener, Scheduler loop, Runnable stopLoop,
            MonotonicClock clock, SetSight.Of sightOf, ShardDrains drains) {
        this.holder = holder;
        this.keys = keys;
        this.ttl = ttl;
        this.drainBound = drainBound;
        this.options = options;
        this.loop = loop;
        this.stopLoop = stopLoop;
        this.clock = clock;
        this.sight = sightOf.sight(this::decideSoon, this::written);
        this.own = new OwnShards(keys, self, calls, listener, drains, loop, clock, ttl, this::memberTenureNow,
                () -> phase.get() instanceof ShardSetPhase.Member, this::decideSoon, sight::facts, holder.floors());
        this.capacity = new CapacityKey(keys, holder.id(), options.capacity(), calls, loop, sight::lookAfresh);
    }

    /**
     * A set of {@code holder}'s, not started, its loop and drains on daemon threads of their own.
     *
     * @throws IllegalArgumentException when a member or capacity key would not fit, or {@code ttl} is no lease TTL
     */
    public static AttachedShardSet join(ShardHolder holder, Claimant self, KeyChanges changes, ShardKeys keys,
            Duration ttl, Duration drainBound, ShardSetOptions options, ShardListener listener, MonotonicClock clock) {
        keys.requireMemberKeyFor(holder.id());
        new LeaseTtl(ttl.toMillis());
        Objects.requireNonNull(drainBound, "drainBound");
        Objects.requireNonNull(listener, "listener");
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(
                Daemons.named("dagnats-shards-" + keys.set()));
        Scheduler loop = Scheduler.of(executor);
        return new AttachedShardSet(holder, self, new ClientShardCalls(holder.client(), self), keys, ttl, drainBound, options,
                listener, loop, executor::shutdownNow, clock,
                SetSight.of(keys, holder.client(), changes, loop, clock, ttl),
                new ShardDrains(keys.set(), listener, drainBound, loop, clock, Daemons.named("dagnats-drain-" + keys.set())));
    }

    /** Joins the set: keeps the member lease and looks at the set now and every ttl/3. */
    public void start() {
        sight.start();
        member = holder.keep(keys.member(holder.id()).value(), ttl, new OwnershipListener() {
            @Override
            public void becameOwner(Tenure tenure) {
                loop.execute(() -> {
                    sight.lookAfresh();
                    decide();
                });
            }

            @Override
            public void stoppedOwning(StopReason reason) {
                loop.execute(() -> {
                    own.memberEnded(reason);
                    decide();
                });
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
        return own.believed(memberTenureNow());
    }

    @Override
    public Optional<Tenure> tenure(int shard) {
        Optional<Tenure> memberTenure = memberTenureNow();
        return memberTenure.flatMap(tenure -> own.revisionBelieved(shard, tenure.start())
                .map(revision -> new Tenure(keys.shard(shard), holder.id(), revision, revision, tenure.deadlineNanos())));
    }

    @Override
    public String shardKey(int shard) {
        return keys.shard(shard).value();
    }

    private Optional<Tenure> memberTenureNow() {
        KeptLeaseHandle handle = member;
        return handle == null ? Optional.empty() : handle.tenure();
    }

    /** A write of the set's keys the sight saw: the floors learn it at once, decision or not. */
    private void written(LeaseKey key, SetFacts.Seen write) {
        own.written(key, write);
    }

    /** Decides on the loop soon, once however often asked: a burst of events (a thousand shards freed) is one plan. */
    private void decideSoon() {
        if (decisionQueued.compareAndSet(false, true)) {
            loop.execute(() -> {
                decisionQueued.set(false);
                decide();
            });
        }
    }

    /** On the loop: what the set asks of this member now. */
    private void decide() {
        if (!(phase.get() instanceof ShardSetPhase.Member)) {
            own.leftIfDone(this::leftNow);
            return;
        }
        Optional<Fence> tenure = memberTenureNow().map(Tenure::start);
        if (tenure.isEmpty()) {
            own.memberEnded(StopReason.DEADLINE_PASSED);
            return;
        }
        own.forgetOtherTenures(tenure.get());
        capacity.announce(tenure.get());
        SetFacts facts = sight.facts();
        own.forgetGone(facts);
        if (!facts.listed()) {
            return;
        }
        long now = clock.nanoTime();
        ShardPlacement.View view = facts.placement(now, ttl.dividedBy(3).toNanos(), options.budget().perRound(keys.shardCount()));
        if (!view.members().containsKey(holder.id())) {
            return; // its capacity is not seen yet: it takes part once a listing shows it
        }
        ShardPlacement.Plan plan = ShardPlacement.plan(view);
        HolderId me = holder.id();
        view.owners().forEach((shard, owner) -> {
            if (owner.equals(me)) {
                own.confirm(shard, tenure.get(), facts.shard(shard).map(SetFacts.Seen::revision).orElse(0L));
            }
        });
        plan.claimsOf(me).forEach(shard -> own.claim(shard, tenure.get()));
        round = round.next(view, now, drainBound.plus(ttl).toNanos());
        for (ShardPlacement.Move move : round.pendingFrom(me, view)) {
            SetFacts.Member target = facts.members().get(move.to());
            if (target != null && target.tenure().isPresent()) {
                own.handOver(move.shard(), new ShardCalls.Target(target.holder(), target.incarnation(),
                        keys.member(target.holder()), target.tenure().get()));
            }
        }
        own.detachParked(now);
    }

    @Override
    public void close() {
        ShardSetPhase before = phase.getAndUpdate(ShardSetPhase::closedIfMember);
        if (before instanceof ShardSetPhase.Member) {
            loop.execute(this::leave);
        }
        if (!Waiting.uninterruptibly(left, drainBound.multipliedBy(2).plus(ttl).plus(LEAVE_SLACK))) {
            System.getLogger("io.dagnats.leases.holder.ShardSet").log(System.Logger.Level.WARNING,
                    "shard set " + keys.set() + " is still leaving");
        }
    }

    /**
     * On the loop: the capacity key detached (no member targets this one any more), every owned
     * shard drained, belief in each ended; then, by {@link #leftNow}, the member lease released,
     * which frees every attached shard at once.
     */
    private void leave() {
        phase.set(new ShardSetPhase.Leaving());
        sight.stop();
        capacity.withdraw();
        own.drainAll();
        own.leftIfDone(this::leftNow);
    }

    private void leftNow() {
        if (phase.get() instanceof ShardSetPhase.Leaving) {
            phase.set(new ShardSetPhase.Left());
            if (member != null) {
                member.close();
            }
            sight.close();
            left.complete(null);
            stopLoop.run();
        }
    }
}
