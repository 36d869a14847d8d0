package io.dagnats.leases.holder;

import java.util.Objects;

/**
 * What a {@link LeaseKeeper} keeps across its states: the next id to give a call or timer,
 * and what its waits have learnt of this process's wall clock ({@link ExpiryFallback}).
 */
record KeeperMemory(long nextId, ExpiryFallback fallback) {

    static final KeeperMemory FRESH = new KeeperMemory(1, ExpiryFallback.NOTHING_LEARNT);

    KeeperMemory {
        Objects.requireNonNull(fallback, "fallback");
    }

    KeeperMemory withNextId(long next) {
        return new KeeperMemory(next, fallback);
    }

    KeeperMemory withFallback(ExpiryFallback learnt) {
        return new KeeperMemory(nextId, learnt);
    }
}
