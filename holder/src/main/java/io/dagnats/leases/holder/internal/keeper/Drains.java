package io.dagnats.leases.holder.internal.keeper;

/**
 * Numbers a keeper's drains. A yield that the key's end cut short leaves its drain running; its end
 * must not count as the end of a later tenure's drain, or the lease would move while that tenure's
 * work still runs. Used on the keeper's loop only.
 */
final class Drains {

    private long begun;

    /** Begins a drain: the number its {@link KeeperEvent.Drained} carries. */
    long begin() {
        return ++begun;
    }

    /** Whether {@code event} ends a drain before the latest. */
    boolean isStale(KeeperEvent event) {
        return event instanceof KeeperEvent.Drained drained && drained.drain() != begun;
    }
}
