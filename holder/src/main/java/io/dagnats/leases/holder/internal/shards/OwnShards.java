package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.Scheduler;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Where each of this member's own shards stands ({@link OwnShard}), and the calls and listener
 * callbacks that move it on. Belief is derived, never stored apart: a shard is believed while its
 * state is a belief state under the member tenure held now (see {@link #believed}). Every state
 * change happens on the loop; an answer comes back as a loop task and is heeded only if the shard
 * is still in the state that sent the call. The listener is told of a shard's end after belief
 * ended and before the move or detach is sent.
 */
final class OwnShards {

    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.ShardSet");

    private final ShardKeys keys;
    private final HolderId me;
    private final Claimant self;
    private final ShardCalls calls;
    private final ToldListener told;
    private final Scheduler loop;
    private final MonotonicClock clock;
    private final Duration ttl;
    private final Supplier<Optional<Tenure>> memberTenure;
    private final BooleanSupplier acting;
    private final Runnable decide;
    private final Supplier<SetFacts> facts;
    private final Map<Integer, OwnShard> states = new ConcurrentHashMap<>();
    private final ClaimBrakes brakes;
    private final ShardFloors floors;
    private final ShardHandOvers handOvers;

    /**
     * @param facts  what the set sees now, any thread: belief in a shard it shows gone is over
     * @param floors the holder's per-key fence floors, which every grant of a shard must clear
     * @param self   this process (its holder id and incarnation): whose writes hold a key here
     */
    OwnShards(ShardKeys keys, Claimant self, ShardCalls calls, ShardListener listener, ShardDrains drains, Scheduler loop,
            MonotonicClock clock, Duration ttl, Supplier<Optional<Tenure>> memberTenure, BooleanSupplier acting,
            Runnable decide, Supplier<SetFacts> facts, FenceFloors floors) {
        this.keys = keys;
        this.me = self.holder();
        this.self = self;
        this.calls = calls;
        this.told = new ToldListener(listener);
        this.loop = loop;
        this.clock = clock;
        this.ttl = ttl;
        this.memberTenure = memberTenure;
        this.acting = acting;
        this.decide = decide;
        this.facts = facts;
        this.brakes = new ClaimBrakes(clock, ttl);
        this.floors = new ShardFloors(floors);
        this.handOvers = new ShardHandOvers(keys, me, calls, told, drains, loop, clock, ttl, memberTenure, decide, states,
                brakes, this.floors);
    }

    /**
     * The shards believed under {@code tenure}, the member's tenure now (none without one), and not
     * shown gone by what the set sees now. Any thread.
     */
    Set<Integer> believed(Optional<Tenure> tenure) {
        Set<Integer> owned = new TreeSet<>();
        tenure.ifPresent(now -> states.keySet().forEach(shard -> revisionBelieved(shard, now.start())
                .ifPresent(revision -> owned.add(shard))));
        return owned;
    }

    /** The shard's fence, if believed under the member tenure {@code tenureStart} and not shown gone. Any thread. */
    Optional<Fence> revisionBelieved(int shard, Fence tenureStart) {
        SetFacts seen = facts.get();
        long now = clock.nanoTime();
        return Optional.ofNullable(states.get(shard)).filter(state -> !state.shownGone(shard, me, seen)
                && !state.unseenTooLong(seen, now, ttl.toNanos())).flatMap(state -> state.believedUnder(tenureStart));
    }

    /**
     * Shards whose key the set's facts show written by anyone since their grant (an operator's
     * revoke, a move or attach by another, freed): belief ended already ({@link #revisionBelieved});
     * the state is forgotten and the listener told {@code LOST}. A shard has no renew of its own,
     * so this (an event, or the listing every third of the TTL) is how its owner learns of it; and
     * when no listing has shown the set for more than a TTL since its grant, belief is over too
     * ({@link OwnShard#unseenTooLong}), told {@code LOST} likewise.
     */
    void forgetGone(SetFacts seen) {
        long now = clock.nanoTime();
        Set<Integer> written = new TreeSet<>();
        Set<Integer> unseen = new TreeSet<>();
        new TreeMap<>(states).forEach((shard, state) -> {
            if (state.shownGone(shard, me, seen) && states.remove(shard, state)) {
                written.add(shard);
                told.revoked(shard, StopReason.LOST);
            } else if (state.unseenTooLong(seen, now, ttl.toNanos()) && states.remove(shard, state)) {
                unseen.add(shard);
                told.revoked(shard, StopReason.LOST);
            }
        });
        // One line per decision, not per shard: a member's thousand shards end together.
        if (!written.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "shard set " + keys.set() + ": " + ShardNumbers.of(written)
                    + " written by someone else since attached here (revoked, freed or moved): lost");
        }
        if (!unseen.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, "shard set " + keys.set() + ": no listing has shown " + ShardNumbers.of(unseen)
                    + " for more than the TTL since attached here or last listed: lost");
        }
    }

    /**
     * A write of {@code key} seen (listed, or an event), as it is seen, whether or not a decision
     * follows: a shard key's write is kept by the floors, so that a grant below it (or at it, when
     * it did not hold the key here, {@link FenceFloors#heldBy}) after the store went back is refused
     * ({@link ShardFloors}).
     */
    void written(LeaseKey key, SetFacts.Seen write) {
        if (keys.shardOf(key).isPresent() && write.revision() != 0) {
            floors.written(key, new Fence(write.revision()), FenceFloors.heldBy(write.holder(), write.incarnation(), self));
        }
    }

    /** The member lease's belief ended: so did every shard's (already, by derivation); the listener is told. */
    void memberEnded(StopReason why) {
        forget(state -> true, why);
    }

    /** States reached under another member tenure are stale: a believed one is told lost. */
    void forgetOtherTenures(Fence tenure) {
        forget(state -> !state.memberTenure().equals(tenure), StopReason.LOST);
    }

    private void forget(Predicate<OwnShard> stale, StopReason why) {
        new TreeMap<>(states).forEach((shard, state) -> {
            if (stale.test(state) && states.remove(shard, state) && state.isBelief()) {
                told.revoked(shard, why);
            }
        });
    }

    /** The view shows {@code shard} attached here (moved here, or after a failed move): owned only once an attach says so. */
    void confirm(int shard, Fence tenure, long seenRevision) {
        if (!brakes.showsBeforeMoveAway(shard, seenRevision)) {
            claim(shard, tenure);
        }
    }

    /** Attaches a shard that has no state here. */
    void claim(int shard, Fence tenure) {
        if (!brakes.mayClaim(shard) || states.putIfAbsent(shard, new OwnShard.Attaching(tenure)) != null) {
            return;
        }
        OwnShard.Attaching sent = (OwnShard.Attaching) states.get(shard);
        calls.attach(keys.shard(shard), keys.member(me), tenure, Optional.empty())
                .whenComplete((answer, failure) -> loop.execute(() -> attached(shard, sent, answer)));
    }

    private void attached(int shard, OwnShard.Attaching sent, ShardCalls.Attached answer) {
        if (states.get(shard) != sent) {
            return;
        }
        Optional<Tenure> now = memberTenure.get();
        if (!(answer instanceof ShardCalls.Attached.Granted granted && acting.getAsBoolean()
                && granted.memberTenure().equals(sent.memberTenure())
                && now.filter(tenure -> tenure.start().equals(sent.memberTenure())).isPresent())) {
            states.remove(shard);
            brakes.refused(shard);
            decide.run();
            return;
        }
        Optional<OwnShard.Owned> owned = floors.own(keys.shard(shard), granted.revision(), sent.memberTenure(),
                clock.nanoTime());
        if (owned.isPresent()) {
            states.put(shard, owned.get());
            told.assigned(shard, new Tenure(keys.shard(shard), me, granted.revision(), granted.revision(),
                    now.get().deadlineNanos()));
        } else {
            // The store went back, or a drain may still act at that fence: not owned; detached (once no
            // drain of it may act), so that whoever attaches it next does so under a new fence.
            OwnShard.HandingOver detaching = new OwnShard.HandingOver(granted.revision(), sent.memberTenure());
            states.put(shard, detaching);
            told.revoked(shard, StopReason.STORE_WENT_BACK);
            brakes.refused(shard);
            handOvers.refused(shard, detaching);
        }
        decide.run();
    }

    /** Drains an owned shard, then moves it to {@code target}; leaving ({@link #drainAll}), detaches it. */
    void handOver(int shard, ShardCalls.Target target) {
        handOvers.handOver(shard, target);
    }

    /** Leaving: every owned shard drained (belief ends after each), every campaign forgotten. */
    void drainAll() {
        handOvers.drainAll();
    }

    /** Parked shards whose wait is over are detached. */
    void detachParked(long now) {
        handOvers.detachParked(now);
    }

    /** Leaving: once nothing is drained, handed over or parked any more, {@code leave} runs (the member's release). */
    void leftIfDone(Runnable leave) {
        long now = clock.nanoTime();
        states.entrySet().removeIf(entry -> entry.getValue() instanceof OwnShard.Parked parked
                && now - parked.readyAtNanos() >= 0);
        if (states.values().stream().allMatch(state -> state instanceof OwnShard.Attaching)) {
            states.clear();
            leave.run();
        }
    }
}
