package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import io.dagnats.leases.holder.ShardListener;

/**
 * A set's listener, told of a shard's start and end on the set's loop: what it throws is logged and
 * goes no further, so one listener's mistake never stops the set from deciding (or ending belief in
 * another shard).
 */
final class ToldListener {

    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.ShardSet");

    private final ShardListener listener;

    ToldListener(ShardListener listener) {
        this.listener = listener;
    }

    void assigned(int shard, Tenure tenure) {
        try {
            listener.shardAssigned(shard, tenure);
        } catch (RuntimeException failed) {
            LOG.log(System.Logger.Level.WARNING, "shardAssigned of shard " + shard + " threw: " + failed);
        }
    }

    void revoked(int shard, StopReason why) {
        try {
            listener.shardRevoked(shard, why);
        } catch (RuntimeException failed) {
            LOG.log(System.Logger.Level.WARNING, "shardRevoked of shard " + shard + " threw: " + failed);
        }
    }
}
