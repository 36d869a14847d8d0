package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import java.time.Duration;

/**
 * Told which shards of a {@link ShardSet} this process owns. {@link #shardAssigned}
 * and {@link #shardRevoked} come on the holder's thread, one at a time and in order
 * per shard; keep them quick. {@link #drain} comes on a thread of its own and may
 * block, up to its bound. What a listener throws is logged and changes nothing.
 * Before acting on a shard, ask {@link ShardSet#tenure(int)} and send its fence
 * downstream, as with any kept lease.
 */
public interface ShardListener {

    /** This process owns {@code shard} from now, under {@code tenure}: start its work. */
    void shardAssigned(int shard, Tenure tenure);

    /**
     * The set gives {@code shard} to another replica: stop its work and flush what
     * it has, then return, within {@code bound}. This process still owns the shard
     * while draining (it renews the lease); once it returns, the lease is released and
     * {@link #shardRevoked} follows with {@link StopReason#RELEASED}. A drain still
     * running after {@code bound} is interrupted once ownership has ended, and the
     * lease is not released ({@link #shardRevoked} is told {@link StopReason#ABANDONED}):
     * the server's TTL frees it only after {@code tenure}'s deadline, so work that
     * checks {@code tenure} (or sends its fence) stays safe.
     */
    default void drain(int shard, Tenure tenure, Duration bound) {
    }

    /** This process no longer owns {@code shard}; it has stopped acting as its owner already. */
    void shardRevoked(int shard, StopReason why);
}
