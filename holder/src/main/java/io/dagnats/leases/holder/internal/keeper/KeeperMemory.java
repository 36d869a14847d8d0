package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Fence;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link LeaseKeeper} keeps across its states: the next id to give a call or timer,
 * what its waits have learnt of this process's wall clock ({@link ExpiryFallback}), and the
 * floor it last said the store went back below ({@link StoreWentBack}), so that one episode
 * is logged and reported once, not on every retry.
 */
record KeeperMemory(long nextId, ExpiryFallback fallback, Optional<Fence> reportedFloor) {

    static final KeeperMemory FRESH = new KeeperMemory(1, ExpiryFallback.NOTHING_LEARNT, Optional.empty());

    KeeperMemory {
        Objects.requireNonNull(fallback, "fallback");
        Objects.requireNonNull(reportedFloor, "reportedFloor");
    }

    KeeperMemory withNextId(long next) {
        return new KeeperMemory(next, fallback, reportedFloor);
    }

    KeeperMemory withFallback(ExpiryFallback learnt) {
        return new KeeperMemory(nextId, learnt, reportedFloor);
    }

    KeeperMemory withReportedFloor(Fence floor) {
        return new KeeperMemory(nextId, fallback, Optional.of(floor));
    }
}
