package io.dagnats.leases.holder.internal;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeptLease;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * This process's tenure of one key, and the forward handlers running under it.
 *
 * <p>Only the key's {@code LeaseKeeper} changes the tenure; anyone may read it.
 * Ending it and admitting a forward handler share one lock: once {@link #end()}
 * returns no handler is admitted, and every handler admitted before has been
 * interrupted. The queries read the clock themselves, so they turn false at the
 * deadline however late the keeper's thread runs.
 */
public final class Ownership {

    private final MonotonicClock clock;
    /** Forward handlers running as this key's owner; guarded by itself, with {@link #end()}. */
    private final Set<ForwardRun> forwards = new HashSet<>();

    private volatile Tenure tenure;
    /**
     * The highest fence this process confirmed before the current tenure began: a forward at or
     * below it carries an earlier tenure's fence, handed out again by a store that went back.
     * Written before {@link #tenure}, read after it.
     */
    private volatile Optional<Fence> usedBefore = Optional.empty();
    /** Completed at the next confirm or end, for those waiting to own ({@link KeptLease#awaitOwnership}). */
    private final AtomicReference<CompletableFuture<Void>> nextChange = new AtomicReference<>(new CompletableFuture<>());

    public Ownership(MonotonicClock clock) {
        this.clock = clock;
    }

    /** Whether this process may act as owner right now. */
    public boolean isOwner() {
        Tenure current = tenure;
        return current != null && current.actingAsOwner(clock.nanoTime());
    }

    /** The current tenure, while acting as owner. */
    public Optional<Tenure> tenure() {
        Tenure current = tenure;
        return current != null && current.actingAsOwner(clock.nanoTime()) ? Optional.of(current) : Optional.empty();
    }

    /** The tenure as last set, even past its deadline; null when not owner. For the keeper's decisions. */
    Tenure current() {
        return tenure;
    }

    /**
     * A renew confirmed a grant: this process owns the key under {@code first} from now, and
     * {@code usedBefore} is the highest fence it had confirmed for the key before.
     */
    public void begin(Tenure first, Optional<Fence> usedBefore) {
        this.usedBefore = usedBefore;
        confirm(first);
    }

    /** A renew confirmed {@code next}, of the tenure begun last: this process owns the key under it from now. */
    public void confirm(Tenure next) {
        tenure = next;
        nextChange.getAndSet(new CompletableFuture<>()).complete(null);
    }

    /** Completes at the next {@link #confirm} or {@link #end}: take it before reading the tenure, so none slips between. */
    public CompletableFuture<Void> nextChange() {
        return nextChange.get();
    }

    /** Stops acting as owner: no forward is admitted from here on, and those still running are told to stop. */
    public void end() {
        synchronized (forwards) {
            tenure = null;
            forwards.forEach(ForwardRun::interrupt);
        }
        nextChange.getAndSet(new CompletableFuture<>()).complete(null);
    }

    /**
     * The owner-side rule for a forwarded request to this key, judged now: the tenure to serve
     * it under, or empty when it must be rejected as stale. Only a request that names this
     * process's incarnation gets here ({@code ForwardInbox}), so a fence above this process's
     * last confirmed write is its own renew that went unanswered, not another process's. A fence at
     * or below one an earlier tenure of this process had is rejected: fences only grow here, and
     * only a store that went back hands such a fence out again.
     */
    public Optional<Tenure> admit(Optional<Fence> presented) {
        Tenure current = tenure;
        if (current == null || !current.judgeForward(presented, clock.nanoTime()).accepted()) {
            return Optional.empty();
        }
        if (usedBefore.filter(earlier -> !earlier.isBelow(presented.orElseThrow())).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(current);
    }

    /**
     * Like {@link #admit(Optional)}, and if admitted, tracks {@code run} until {@link #served}: when
     * this process stops acting as owner (deadline, lost, close) the run is interrupted, and a
     * close releases the lease only after it has finished.
     */
    public Optional<Tenure> admit(Optional<Fence> presented, ForwardRun run) {
        synchronized (forwards) {
            Optional<Tenure> admitted = admit(presented);
            admitted.ifPresent(ignored -> forwards.add(run));
            return admitted;
        }
    }

    /** A tracked forward handler call has ended. */
    public void served(ForwardRun run) {
        synchronized (forwards) {
            forwards.remove(run);
        }
        run.finish();
    }

    /**
     * Completes once every forward handler running now has finished, or fails with a
     * {@link java.util.concurrent.TimeoutException} if one still runs after {@code atMost}.
     */
    public CompletableFuture<Void> runsEnded(Duration atMost) {
        CompletableFuture<?>[] running;
        synchronized (forwards) {
            running = forwards.stream().map(ForwardRun::finished).toArray(CompletableFuture[]::new);
        }
        return CompletableFuture.allOf(running).orTimeout(atMost.toNanos(), TimeUnit.NANOSECONDS);
    }
}
