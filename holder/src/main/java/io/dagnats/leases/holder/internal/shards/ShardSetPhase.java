package io.dagnats.leases.holder.internal.shards;

/**
 * A shard set's life, named instead of flags that could disagree: a member deciding, closed with
 * its leave queued, leaving, left. Each phase allows what the one before did not: a decision only
 * as a member, a leave only once, the end of the first close only once nothing is kept.
 */
sealed interface ShardSetPhase {

    /** The first close ends membership; a later one, from any thread, changes nothing. */
    static ShardSetPhase closedIfMember(ShardSetPhase now) {
        return now instanceof Member ? new Closed() : now;
    }

    /** Joined: the loop decides which shards to keep. */
    record Member() implements ShardSetPhase {
    }

    /** Closed: no more decisions; the leave is queued on the loop. */
    record Closed() implements ShardSetPhase {
    }

    /** On the loop: the member lease released, the shards being drained and released. */
    record Leaving() implements ShardSetPhase {
    }

    /** Nothing kept any more: the first close returns, and the loop stops. */
    record Left() implements ShardSetPhase {
    }
}
