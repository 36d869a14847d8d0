package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.MonotonicClock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * What holds back an attach the view seems to ask for, because the view is known to be stale: a
 * shard moved away is not confirmed again until the view shows a write at or after the move, and a
 * refused attach is not asked again until a third of the TTL passed (the next listing). Loop only.
 */
final class ClaimBrakes {

    private final MonotonicClock clock;
    private final Duration ttl;
    /** Shards moved away, with the revision of the move. */
    private final Map<Integer, Long> movedAway = new HashMap<>();
    /** Refused attaches and when to ask again. */
    private final Map<Integer, Long> refusedUntil = new HashMap<>();

    ClaimBrakes(MonotonicClock clock, Duration ttl) {
        this.clock = clock;
        this.ttl = ttl;
    }

    /** {@code shard} was moved away at {@code revision}. */
    void movedAway(int shard, long revision) {
        movedAway.put(shard, revision);
    }

    /** An attach of {@code shard} was refused (or came to nothing) now. */
    void refused(int shard) {
        refusedUntil.put(shard, clock.nanoTime() + ttl.toNanos() / 3);
    }

    /** Whether a view that shows {@code shard} here at {@code seenRevision} predates its move away. */
    boolean showsBeforeMoveAway(int shard, long seenRevision) {
        Long moved = movedAway.get(shard);
        if (moved != null && Long.compareUnsigned(seenRevision, moved) < 0) {
            return true;
        }
        movedAway.remove(shard);
        return false;
    }

    /** Whether {@code shard} may be attached now (no refusal still fresh). */
    boolean mayClaim(int shard) {
        Long until = refusedUntil.get(shard);
        if (until != null && clock.nanoTime() - until < 0) {
            return false;
        }
        refusedUntil.remove(shard);
        return true;
    }
}
