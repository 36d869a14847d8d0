package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a {@link LeaseKeeper} keeps across its states: the next id to give a call or timer,
 * what its waits have learnt of this process's wall clock ({@link ExpiryFallback}), and the
 * floor it last said the store went back below ({@link StoreWentBack}), so that one episode
 * is logged and reported once, not on every retry; and when it last yielded to a better candidate
 * (the yield brake of {@link io.dagnats.leases.holder.KeepOptions#yieldInterval()}); and why the
 * listener was last told it stopped owning, since it last became owner (a close abandoned before
 * it moved the lease corrects a stop that said it would); and when its candidacy last said yes to a
 * handover check (a handed-over event soon after is answered by dagnats' grant, ADR-046).
 */
record KeeperMemory(long nextId, ExpiryFallback fallback, Optional<Fence> reportedFloor, OptionalLong lastYield,
        Optional<StopReason> toldStop, OptionalLong saidYes) {

    static final KeeperMemory FRESH = new KeeperMemory(1, ExpiryFallback.NOTHING_LEARNT, Optional.empty(),
            OptionalLong.empty(), Optional.empty(), OptionalLong.empty());

    KeeperMemory {
        Objects.requireNonNull(fallback, "fallback");
        Objects.requireNonNull(reportedFloor, "reportedFloor");
        Objects.requireNonNull(lastYield, "lastYield");
        Objects.requireNonNull(toldStop, "toldStop");
        Objects.requireNonNull(saidYes, "saidYes");
    }

    KeeperMemory withNextId(long next) {
        return new KeeperMemory(next, fallback, reportedFloor, lastYield, toldStop, saidYes);
    }

    KeeperMemory withFallback(ExpiryFallback learnt) {
        return new KeeperMemory(nextId, learnt, reportedFloor, lastYield, toldStop, saidYes);
    }

    KeeperMemory withReportedFloor(Fence floor) {
        return new KeeperMemory(nextId, fallback, Optional.of(floor), lastYield, toldStop, saidYes);
    }

    /** This process stepped down for a better candidate at {@code nanos}: the yield brake counts from there. */
    KeeperMemory withYieldAt(long nanos) {
        return new KeeperMemory(nextId, fallback, reportedFloor, OptionalLong.of(nanos), toldStop, saidYes);
    }

    /** The listener was told it stopped owning for {@code why}, or (empty) that it became owner. */
    KeeperMemory withToldStop(Optional<StopReason> why) {
        return new KeeperMemory(nextId, fallback, reportedFloor, lastYield, why, saidYes);
    }

    /** Its candidacy said yes to a handover check at {@code nanos}. */
    KeeperMemory withSaidYes(long nanos) {
        return new KeeperMemory(nextId, fallback, reportedFloor, lastYield, toldStop, OptionalLong.of(nanos));
    }
}
