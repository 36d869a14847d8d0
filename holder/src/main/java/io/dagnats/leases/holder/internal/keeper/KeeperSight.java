package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.internal.Daemons;
import io.dagnats.leases.holder.internal.Ownership;
import io.dagnats.leases.holder.internal.TenureWorks;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What others read of one {@link LeaseKeeper} off its scheduler thread: whether it waits for the
 * key (what its candidacy answers), why it last stopped owning ({@code KeptLease.lastStop}), and
 * the {@link TenureWorks} of its current belief window (which also holds the earlier windows' work
 * that has not returned). Written on the scheduler thread only.
 */
final class KeeperSight {

    private final String key;
    private volatile boolean waiting;
    private volatile Optional<OwnershipListener.StopReason> lastStop = Optional.empty();
    private volatile TenureWorks work = TenureWorks.NONE;
    /** Completes once the listener returned from every stoppedOwning told so far: a handover waits for it too. */
    private volatile CompletableFuture<Void> stopTold = CompletableFuture.completedFuture(null);

    KeeperSight(String key) {
        this.key = key;
    }

    /** After each step: waiting means nothing of the key is held or being proven. */
    KeeperStep observed(KeeperStep step) {
        waiting = step.state() instanceof KeeperState.Waiting || step.state() instanceof KeeperState.Acquiring;
        return step;
    }

    boolean waiting() {
        return waiting;
    }

    Optional<OwnershipListener.StopReason> lastStop() {
        return lastStop;
    }

    /**
     * A belief window begins: the work it starts is tracked from here, and the earlier windows' work
     * that has not returned stays waited for (an overrun yield kept the key for it; no later drain
     * may let the key go while it may still act).
     */
    TenureWorks began() {
        TenureWorks begun = work.next(Daemons.named("dagnats-tenure-" + key));
        work = begun;
        return begun;
    }

    /** The belief window ended: its work is cancelled at once. */
    void stopped(OwnershipListener.StopReason why) {
        work.cancel();
        lastStop = Optional.of(why);
    }

    /** Why the window ended, as first told, no longer holds: {@code why} is the last stop now. */
    void restated(OwnershipListener.StopReason why) {
        lastStop = Optional.of(why);
    }

    /** The listener is being told the window ended; {@code returned} completes when it has returned. */
    void told(CompletableFuture<Void> returned) {
        stopTold = stopTold.isDone() ? returned : CompletableFuture.allOf(stopTold, returned);
    }

    /**
     * Completes once the forward handlers, the ended windows' work and the listener's
     * {@code stoppedOwning} have returned (the belief window, as the listener sees it, is over), or
     * fails after {@code within}. The bound times out a copy: the shared stoppedOwning stage must
     * still complete when the listener returns, for the next drain, after an overrun one, to see it.
     */
    CompletableFuture<Void> drained(Ownership ownership, Duration within) {
        return CompletableFuture.allOf(ownership.runsEnded(within), work.returned(within.toNanos()),
                stopTold.copy().orTimeout(within.toNanos(), TimeUnit.NANOSECONDS));
    }
}
