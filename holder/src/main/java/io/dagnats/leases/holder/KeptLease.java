package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import java.time.Duration;
import java.util.Optional;

/**
 * One key this process wants to own, kept for as long as it is open.
 *
 * <p>The holder campaigns for the key, and acts as owner only after a renew of its
 * own confirmed a grant; it stops a safety margin ({@link Tenure#safetyMargin})
 * before the server's TTL would run out. The queries read the clock themselves,
 * so they turn false at the deadline however late the holder's thread runs: ask
 * {@link #isOwner()} or {@link #fence()} right before acting, and send the fence
 * with every downstream write.
 *
 * <p>While another holder has the key, it waits: the key's release, revoke or
 * expiry event makes it ask within 25 ms; the holder's renewals do not. Events
 * are at most once, so it also asks just after the holder's expiry as the last
 * answer gave it (100 to 300 ms after it, and at least once per TTL of its own;
 * every two thirds of its TTL when its wall clock runs so far ahead of the server's
 * that the holder's expiry reads as 2 s past, or past in more than 4 answers in a row;
 * a renewal the server accepted after an expiry read as past teaches it how far ahead
 * its clock runs at least, and later expiries are read corrected by that).
 * Waiting on a key held by a holder that renews every third of its TTL costs at
 * most one acquire per two thirds of a TTL per waiter (measured: one per TTL, 4 a
 * minute at 15 s), however often it renews and however many wait; with every event lost,
 * a dead holder's key is still taken within about 300 ms of its expiry.
 *
 * <p><b>Fences only grow.</b> The fences {@link #fence()} gives for a key in this holder
 * process only go up, even when the store comes back without writes it had acknowledged: an
 * answer at or below the highest fence this process ever confirmed for the key ends ownership
 * ({@link OwnershipListener.StopReason#STORE_WENT_BACK}), is logged once and reported to dagnats,
 * and the holder campaigns on until it owns the key under a higher fence.
 */
public interface KeptLease extends AutoCloseable {

    LeaseKey key();

    /** The holder id this process keeps the key as. */
    HolderId holder();

    /** Whether this process may act as owner right now. */
    boolean isOwner();

    /** The current tenure, while acting as owner. */
    Optional<Tenure> tenure();

    /** The fence to send with every downstream write, while acting as owner. */
    Optional<Fence> fence();

    /**
     * Waits until this process acts as owner, for at most {@code timeout}: the tenure it owns the
     * key under, or empty when the timeout ran out first or the lease was closed. Returns at once
     * when it owns the key already. The keeper wakes it when a renew of its own confirms a grant,
     * so it costs no call of its own; what it returns is a moment's: ask {@link #isOwner()} or
     * {@link #fence()} again right before acting, as ever. A timeout longer than a long counts in
     * nanoseconds (about 292 years, as {@code Duration.ofMillis(Long.MAX_VALUE)}) waits that long:
     * in effect until ownership or close.
     *
     * @throws InterruptedException when the waiting thread is interrupted
     */
    Optional<Tenure> awaitOwnership(Duration timeout) throws InterruptedException;

    /**
     * Why this process last stopped owning the key ({@link OwnershipListener.StopReason#HANDED_OVER},
     * {@code PREFERRED_CANDIDATE}, {@code RELEASED}, {@code LOST}, ...): empty while it has never stopped.
     */
    default Optional<OwnershipListener.StopReason> lastStop() {
        return Optional.empty();
    }

    /**
     * Stops keeping the key: stops acting as owner, then hands the lease to the best waiting
     * candidate that answers within a short window (by the key's {@link Succession}), or else
     * releases it.
     */
    void close();
}
