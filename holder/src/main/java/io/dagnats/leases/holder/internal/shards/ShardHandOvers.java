package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import io.dagnats.leases.holder.internal.Scheduler;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * How a member's owned shard leaves it ({@link OwnShards} holds the states, this moves them on):
 * drained, then belief ended and the listener told, then moved to its target or (leaving)
 * detached; a drain that overruns its bound parks the shard, owned by nobody, for a TTL, then
 * detaches it. Loop only; an answer is heeded only if the shard is still in the state that sent it.
 *
 * <p>A drain may act at its shard's fence from its start until it returns, or (overrun) until its
 * park's wait is over, whatever becomes of the member's belief meanwhile: its fence is spent when
 * it starts (unspent only when it returned in time and the move or detach was answered unwritten),
 * and a grant of the shard refused meanwhile parks it for the rest of that wait instead of
 * detaching it, so that nobody else is given it while the drain may still act.
 */
final class ShardHandOvers {

    private final ShardKeys keys;
    private final HolderId me;
    private final ShardCalls calls;
    private final ToldListener told;
    private final ShardDrains drains;
    private final Scheduler loop;
    private final MonotonicClock clock;
    private final Duration ttl;
    private final Supplier<Optional<Tenure>> memberTenure;
    private final Runnable decide;
    private final Map<Integer, OwnShard> states;
    private final ClaimBrakes brakes;
    private final ShardFloors floors;
    /** Per shard whose drain overran, when its park's wait is over; kept when the parked state is forgotten. */
    private final Map<Integer, Long> parkedUntil = new HashMap<>();

    /**
     * @param states the member's shard states, shared with {@link OwnShards}
     * @param floors told of every move and detach sent, which may write past the shard's fence
     */
    ShardHandOvers(ShardKeys keys, HolderId me, ShardCalls calls, ToldListener told, ShardDrains drains, Scheduler loop,
            MonotonicClock clock, Duration ttl, Supplier<Optional<Tenure>> memberTenure, Runnable decide,
            Map<Integer, OwnShard> states, ClaimBrakes brakes, ShardFloors floors) {
        this.keys = keys;
        this.me = me;
        this.calls = calls;
        this.told = told;
        this.drains = drains;
        this.loop = loop;
        this.clock = clock;
        this.ttl = ttl;
        this.memberTenure = memberTenure;
        this.decide = decide;
        this.states = states;
        this.brakes = brakes;
        this.floors = floors;
    }

    /** Drains an owned shard, then moves it to {@code target}; leaving ({@link #drainAll}), detaches it. */
    void handOver(int shard, ShardCalls.Target target) {
        drain(shard, Optional.of(target));
    }

    /** Leaving: every owned shard drained (belief ends after each), every campaign forgotten. */
    void drainAll() {
        new TreeMap<>(states).forEach((shard, state) -> {
            if (state instanceof OwnShard.Attaching) {
                states.remove(shard);
            } else if (state instanceof OwnShard.Owned) {
                drain(shard, Optional.empty());
            }
        });
    }

    private void drain(int shard, Optional<ShardCalls.Target> target) {
        if (!(states.get(shard) instanceof OwnShard.Owned owned)) {
            return;
        }
        OwnShard.Draining draining = new OwnShard.Draining(owned.revision(), owned.memberTenure(), owned.grantedAt(),
                target);
        states.put(shard, draining);
        // The drain acts at this fence from now on, even should the member's belief end and the state be forgotten.
        floors.spend(keys.shard(shard), owned.revision());
        Tenure tenure = new Tenure(keys.shard(shard), me, owned.revision(), owned.revision(),
                memberTenure.get().map(Tenure::deadlineNanos).orElse(clock.nanoTime()));
        drains.start(shard, tenure, done -> drained(done, draining), late -> overran(late, draining));
    }

    private void drained(int shard, OwnShard.Draining draining) {
        if (states.get(shard) != draining) {
            return;
        }
        OwnShard.HandingOver sent = new OwnShard.HandingOver(draining.revision(), draining.memberTenure());
        states.put(shard, sent); // belief ends here, before the listener is told and before the call is sent
        if (draining.target().isEmpty()) {
            // Leaving: detached as soon as its own drain returns, not when the member lease is released
            // after every other drain (ADR-031's promise to the replicas taking the shards over).
            told.revoked(shard, StopReason.RELEASED);
            detach(shard, sent);
            return;
        }
        told.revoked(shard, StopReason.HANDED_OVER);
        floors.spend(keys.shard(shard), draining.revision());
        calls.move(keys.shard(shard), draining.revision(), draining.target().get())
                .whenComplete((answer, failure) -> loop.execute(() -> {
                    if (answer instanceof ShardCalls.Moved.Lost || answer instanceof ShardCalls.Moved.NoSuccessor) {
                        floors.unspent(keys.shard(shard), draining.revision());
                    }
                    if (states.get(shard) == sent) {
                        states.remove(shard);
                        if (answer instanceof ShardCalls.Moved.Done done) {
                            brakes.movedAway(shard, done.revision().revision());
                        }
                    }
                    decide.run();
                }));
    }

    private void overran(int shard, OwnShard.Draining draining) {
        if (states.get(shard) != draining) {
            return;
        }
        long readyAt = clock.nanoTime() + ttl.toNanos();
        states.put(shard, new OwnShard.Parked(draining.revision(), draining.memberTenure(), readyAt));
        parkedUntil.put(shard, readyAt);
        // The abandoned drain may still act at this fence: never owned here at it again, even should the
        // parked state be forgotten (the member's belief ended) and the same record be granted again.
        floors.spend(keys.shard(shard), draining.revision());
        told.revoked(shard, StopReason.ABANDONED);
        loop.schedule(decide, ttl.toNanos());
    }

    /** Parked shards whose wait is over are detached; with {@code leaving}, forgotten (the member's release frees them). */
    void detachParked(long now) {
        parkedUntil.values().removeIf(readyAt -> now - readyAt >= 0);
        new TreeMap<>(states).forEach((shard, state) -> {
            if (state instanceof OwnShard.Parked parked && now - parked.readyAtNanos() >= 0) {
                OwnShard.HandingOver sent = new OwnShard.HandingOver(parked.revision(), parked.memberTenure());
                states.put(shard, sent);
                detach(shard, sent);
            }
        });
    }

    /**
     * A grant of {@code shard} was refused, its state {@code refused}: detached, unless a drain of it may
     * still act (running, or overrun and its park's wait not over), then parked until that wait is over.
     */
    void refused(int shard, OwnShard.HandingOver refused) {
        long now = clock.nanoTime();
        Optional<Long> until = drains.boundAt(shard).map(bound -> bound + ttl.toNanos())
                .or(() -> Optional.ofNullable(parkedUntil.get(shard)))
                .filter(readyAt -> readyAt - now > 0);
        if (until.isEmpty()) {
            detach(shard, refused);
            return;
        }
        states.put(shard, new OwnShard.Parked(refused.revision(), refused.memberTenure(), until.get()));
        loop.schedule(decide, until.get() - now);
    }

    /** Detaches {@code shard}, its state {@code sent}: forgotten once answered. */
    void detach(int shard, OwnShard.HandingOver sent) {
        floors.spend(keys.shard(shard), sent.revision());
        calls.detach(keys.shard(shard), sent.revision()).whenComplete((answer, failure) -> loop.execute(() -> {
            if (Boolean.FALSE.equals(answer)) {
                floors.unspent(keys.shard(shard), sent.revision());
            }
            states.remove(shard, sent);
            decide.run();
        }));
    }
}
