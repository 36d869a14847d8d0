package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;

/** One shard's lease told to the set's listener, and a new decision of the set after every change of ownership. */
final class ShardOwnership implements OwnershipListener {

    private final int shard;
    private final ShardListener listener;
    private final Runnable decideSoon;

    ShardOwnership(int shard, ShardListener listener, Runnable decideSoon) {
        this.shard = shard;
        this.listener = listener;
        this.decideSoon = decideSoon;
    }

    @Override
    public void becameOwner(Tenure tenure) {
        try {
            listener.shardAssigned(shard, tenure);
        } finally {
            decideSoon.run();
        }
    }

    @Override
    public void stoppedOwning(StopReason reason) {
        try {
            listener.shardRevoked(shard, reason);
        } finally {
            decideSoon.run();
        }
    }
}
