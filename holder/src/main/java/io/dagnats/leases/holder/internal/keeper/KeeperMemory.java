package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Fence;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a {@link LeaseKeeper} keeps across its states: the next id to give a call or timer,
 * what its waits have learnt of this process's wall clock ({@link ExpiryFallback}), and the
 * floor it last said the store went back below ({@link StoreWentBack}), so that one episode
 * is logged and reported once, not on every retry; and when it last yielded to a better candidate
 * (the yield brake of {@link io.dagnats.leases.holder.KeepOptions#yieldInterval()}).
 */
record KeeperMemory(long nextId, ExpiryFallback fallback, Optional<Fence> reportedFloor, OptionalLong lastYield) {

    static final KeeperMemory FRESH = new KeeperMemory(1, ExpiryFallback.NOTHING_LEARNT, Optional.empty(),
            OptionalLong.empty());

    KeeperMemory {
        Objects.requireNonNull(fallback, "fallback");
        Objects.requireNonNull(reportedFloor, "reportedFloor");
        Objects.requireNonNull(lastYield, "lastYield");
    }

    KeeperMemory withNextId(long next) {
        return new KeeperMemory(next, fallback, reportedFloor, lastYield);
    }

    KeeperMemory withFallback(ExpiryFallback learnt) {
        return new KeeperMemory(nextId, learnt, reportedFloor, lastYield);
    }

    KeeperMemory withReportedFloor(Fence floor) {
        return new KeeperMemory(nextId, fallback, Optional.of(floor), lastYield);
    }

    /** This process stepped down for a better candidate at {@code nanos}: the yield brake counts from there. */
    KeeperMemory withYieldAt(long nanos) {
        return new KeeperMemory(nextId, fallback, reportedFloor, OptionalLong.of(nanos));
    }
}
