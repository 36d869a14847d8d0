package io.dagnats.leases.holder;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.ListingWalk;
import io.dagnats.leases.protocol.Operation;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * M shards spread over the live replicas of a set, each owning ⌈M/N⌉ or ⌊M/N⌋
 * ({@link ShardBalance} has the rule). Made by {@link LeaseHolder#shards}.
 *
 * <p>Every shard is a lease ({@code <set>-shard-<i>}) this replica keeps through
 * its holder, so ownership follows the holder library's tenure rule and nothing
 * else: this class only chooses which shard keys to keep. Membership is a lease
 * too ({@code <set>-member-<holder id>}): a crashed replica leaves within its TTL.
 * The replica sees the set by listing both prefixes every third of the TTL and by
 * the change events of the shard keys and of the members it knows; it takes a
 * freed shard as soon as the event arrives, and gives one up by draining it first.
 *
 * <p>Its own job is the loop: see, decide, act, on one thread of its own.
 */
public final class ShardSet implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ShardSet.class.getName());
    /** What leaving may take beyond the drains: the member's and the shards' releases. */
    private static final Duration LEAVE_SLACK = Duration.ofSeconds(30);

    private final LeaseHolder holder;
    private final ShardKeys keys;
    private final Duration ttl;
    private final Duration drainBound;
    private final ShardListener listener;
    private final KeyChanges changes;
    private final ScheduledExecutorService loop;
    /** Every shard key this replica keeps, owned or campaigned for. Written on the loop only. */
    private final Map<Integer, KeptLease> kept = new ConcurrentHashMap<>();
    /** The members and shard owners seen: listed, then corrected by events. Loop only. */
    private final Set<HolderId> members = new HashSet<>();
    private final Map<Integer, HolderId> owners = new HashMap<>();
    private final Set<HolderId> followedMembers = new HashSet<>();
    private final AtomicBoolean decisionQueued = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Completed once the first close has left the set. */
    private final CompletableFuture<Void> left = new CompletableFuture<>();
    private KeptLease member;
    /**
     * A listing has succeeded once. Until then the replica sees no other member and would
     * take every shard (a holder without permission to list never would see one), so it
     * takes none. Loop only.
     */
    private boolean listedOnce;

    ShardSet(LeaseHolder holder, KeyChanges changes, ShardKeys keys, Duration ttl, Duration drainBound,
            ShardListener listener) {
        this.holder = holder;
        this.changes = changes;
        this.keys = keys;
        this.ttl = ttl;
        this.drainBound = drainBound;
        this.listener = listener;
        this.loop = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "dagnats-shards-" + keys.set());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Joins the set: keeps the member lease, follows the shard keys, and looks at the set now and every ttl/3. */
    void start() {
        changes.open();
        for (int shard = 0; shard < keys.shardCount(); shard++) {
            changes.follow(keys.shard(shard), this::changed);
        }
        member = holder.keep(keys.member(holder.id()).value(), ttl, new OwnershipListener() {
            @Override
            public void becameOwner(Tenure tenure) {
                // A fresh look, not the view from before joining: replicas that start together
                // see each other, instead of the first one taking every shard to give most back.
                onLoop(ShardSet.this::look);
            }

            @Override
            public void stoppedOwning(StopReason reason) {
                decideSoon();
            }
        });
        long period = Math.max(100, ttl.toMillis() / 3);
        loop.scheduleWithFixedDelay(this::look, 0, period, TimeUnit.MILLISECONDS);
    }

    public String name() {
        return keys.set();
    }

    public int shardCount() {
        return keys.shardCount();
    }

    /** The shards this process acts as owner of right now. */
    public Set<Integer> owned() {
        Set<Integer> owned = new TreeSet<>();
        kept.forEach((shard, lease) -> {
            if (lease.isOwner()) {
                owned.add(shard);
            }
        });
        return owned;
    }

    /** The tenure of {@code shard} while this process acts as its owner; ask right before acting. */
    public Optional<Tenure> tenure(int shard) {
        KeptLease lease = kept.get(shard);
        return lease == null ? Optional.empty() : lease.tenure();
    }

    /** The lease key of {@code shard}, as the service and operators see it. */
    public String shardKey(int shard) {
        return keys.shard(shard).value();
    }

    /** The lease key of {@code shard} in the set named {@code set}: {@code <set>-shard-<shard>}. */
    public static String shardKey(String set, int shard) {
        return new ShardKeys(set, shard + 1).shard(shard).value();
    }

    /** Lists the set's members and shard owners, then decides. */
    private void look() {
        try {
            Map<LeaseKey, LeaseView> listed = list(keys.memberPrefix());
            listed.putAll(list(keys.shardPrefix()));
            members.clear();
            owners.clear();
            listed.values().forEach(this::saw);
            follow();
            listedOnce = true;
        } catch (RuntimeException | ExecutionException | TimeoutException unseen) {
            LOG.log(System.Logger.Level.WARNING, "shard set " + keys.set() + " could not list its leases ("
                    + unseen.getMessage() + (listedOnce ? "); it decides from the events it saw"
                            : "); it takes no shard until a listing succeeds (holders need " + Operation.LIST.subject() + ")"));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return;
        }
        decide();
    }

    private Map<LeaseKey, LeaseView> list(KeyPrefix prefix)
            throws ExecutionException, TimeoutException, InterruptedException {
        Map<LeaseKey, LeaseView> leases = new HashMap<>();
        ListingWalk.walkAsync(holder.client()::list, prefix, ListRequest.MAX_PAGE_SIZE).get(30, TimeUnit.SECONDS)
                .forEach(lease -> leases.put(lease.key(), lease));
        return leases;
    }

    private void saw(LeaseView lease) {
        keys.memberOf(lease.key(), lease.holder()).ifPresent(members::add);
        keys.shardOf(lease.key()).ifPresent(shard -> owners.put(shard, lease.holder()));
    }

    /** Follows the change events of every member listed (and of no other), so one that leaves is noticed at once. */
    private void follow() {
        for (HolderId seen : members) {
            if (followedMembers.add(seen)) {
                changes.follow(keys.member(seen), this::changed);
            }
        }
        followedMembers.removeIf(gone -> {
            if (members.contains(gone)) {
                return false;
            }
            changes.unfollow(keys.member(gone));
            return true;
        });
    }

    /** A change event of a shard or member key: corrects the view on the loop, then decides. */
    private void changed(Optional<LeaseChange> event) {
        event.ifPresent(change -> onLoop(() -> {
            boolean ends = change.kind().endsLease();
            keys.shardOf(change.key()).ifPresent(shard -> {
                if (ends) {
                    owners.remove(shard);
                } else {
                    change.holder().ifPresent(owner -> owners.put(shard, owner));
                }
            });
            keys.namedBy(change.key()).ifPresent(who -> {
                // A member key that ended, or that another holder wrote, shows no member.
                if (!ends && change.holder().filter(who::equals).isPresent()) {
                    members.add(who);
                } else {
                    members.remove(who);
                }
            });
            decide();
        }));
    }

    /** Decides on the loop soon, once however often asked meanwhile. */
    private void decideSoon() {
        if (decisionQueued.compareAndSet(false, true)) {
            onLoop(() -> {
                decisionQueued.set(false);
                decide();
            });
        }
    }

    private void decide() {
        if (closed.get() || !listedOnce) {
            return;
        }
        Set<Integer> owned = new HashSet<>();
        Set<Integer> pending = new HashSet<>();
        kept.forEach((shard, lease) -> (lease.isOwner() ? owned : pending).add(shard));
        Set<HolderId> live = new HashSet<>(members);
        if (member.isOwner()) {
            live.add(holder.id());
        } else {
            live.remove(holder.id());
        }
        ShardBalance.Plan plan = ShardBalance.decide(
                new ShardBalance.View(keys.shardCount(), holder.id(), live, owners, owned, pending));
        for (int shard : plan.abandon()) {
            KeptLease lease = kept.get(shard);
            if (lease != null && !lease.isOwner()) {
                kept.remove(shard).close();
            }
        }
        giveUp(plan.release());
        for (int shard : plan.campaign()) {
            kept.put(shard, holder.keep(keys.shard(shard).value(), ttl, new ShardOwnership(shard)));
        }
    }

    /**
     * Drain, bounded, then release: the shards' work stops before another replica can
     * get their leases. The drains run at once, and each shard is released as soon as
     * its own drain returns. A drain that overruns the bound may still act under the
     * tenure it was given, so its lease is not released: ownership ends, the drain is
     * interrupted, and the server's TTL frees the key after that tenure's deadline.
     */
    private void giveUp(Collection<Integer> shards) {
        BlockingQueue<Integer> drained = new LinkedBlockingQueue<>();
        Map<Integer, Thread> draining = new TreeMap<>();
        for (int shard : shards) {
            KeptLease lease = kept.get(shard);
            if (lease == null) {
                continue;
            }
            Optional<Tenure> tenure = lease.tenure();
            if (tenure.isPresent()) {
                draining.put(shard, drain(shard, tenure.get(), drained));
            } else {
                release(shard);
            }
        }
        long deadline = System.nanoTime() + drainBound.toNanos();
        while (!draining.isEmpty()) {
            Integer done = null;
            try {
                done = drained.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            if (done == null) {
                break; // the bound has passed, or the set is being shut down: the rest overran
            }
            draining.remove(done);
            release(done);
        }
        draining.forEach((shard, drainer) -> {
            LOG.log(System.Logger.Level.WARNING, "the drain of " + keys.shard(shard) + " took over "
                    + drainBound.toMillis() + " ms; it is interrupted and the shard is left to expire by its TTL");
            kept.remove(shard).abandon();
            drainer.interrupt();
            // Still ours on the server until its TTL runs out, and an acquire under our own id would
            // be granted that very write, the drain's: no campaign for it until it is seen freed.
            owners.put(shard, holder.id());
        });
    }

    private void release(int shard) {
        kept.remove(shard).close();
        owners.remove(shard);
    }

    /** Starts the listener's drain of {@code shard} on a thread of its own, which puts the shard in {@code drained} when done. */
    private Thread drain(int shard, Tenure tenure, BlockingQueue<Integer> drained) {
        Thread drainer = new Thread(() -> {
            try {
                listener.drain(shard, tenure, drainBound);
            } catch (RuntimeException failed) {
                LOG.log(System.Logger.Level.WARNING, "the drain of " + keys.shard(shard) + " failed: " + failed);
            } finally {
                drained.add(shard);
            }
        }, "dagnats-drain-" + keys.shard(shard));
        drainer.setDaemon(true);
        drainer.start();
        return drainer;
    }

    private void onLoop(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException closedAlready) {
            // the set is closed: nothing of it runs any more
        }
    }

    /**
     * Leaves the set: releases the member lease, stops campaigning, then drains and
     * releases every shard owned. A second close, from any thread, waits for the first
     * to finish, so a holder closed meanwhile never releases a shard still being drained.
     * An interrupt does not cut the drains short: it is kept for the caller afterwards.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            leave();
        }
        if (!Waiting.uninterruptibly(left, leaveBound().plus(LEAVE_SLACK))) {
            LOG.log(System.Logger.Level.WARNING, "shard set " + keys.set() + " is still leaving");
        }
    }

    /** A rebalance's drains may be ahead of the leave on the loop, then the leave's own, then the releases. */
    private Duration leaveBound() {
        return drainBound.multipliedBy(2).plus(LEAVE_SLACK);
    }

    private void leave() {
        Future<?> leaving = loop.submit(() -> {
            // The member lease first: the others' quotas rise now, so each shard released below is
            // taken as soon as its release event arrives, not only after the last one is drained.
            if (member != null) {
                member.close();
            }
            giveUp(new TreeSet<>(kept.keySet()));
        });
        try {
            if (!Waiting.uninterruptibly(leaving, leaveBound())) {
                LOG.log(System.Logger.Level.WARNING, "shard set " + keys.set() + " did not leave in time");
            }
        } finally {
            // A drain cut short here reads as overrun: its shard is abandoned to its TTL, not
            // released, and that is done before the holder goes on to release what it keeps.
            loop.shutdownNow();
            Waiting.uninterruptibly(loop, LEAVE_SLACK);
            changes.close();
            left.complete(null);
        }
    }

    /** One shard's lease told to the set's listener, and a new decision after every change of ownership. */
    private final class ShardOwnership implements OwnershipListener {
        private final int shard;

        ShardOwnership(int shard) {
            this.shard = shard;
        }

        @Override
        public void becameOwner(Tenure tenure) {
            try {
                listener.shardAssigned(shard, tenure);
            } finally {
                decideSoon();
            }
        }

        @Override
        public void stoppedOwning(StopReason reason) {
            try {
                listener.shardRevoked(shard, reason);
            } finally {
                decideSoon();
            }
        }
    }
}
