package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.protocol.LeaseView;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * When a waiter asks again by itself, in case the event that frees the key is lost (events
 * are at most once): just after the holder's advisory expiry, read on this process's wall
 * clock. Never sooner than 50 ms, never later than the waiter's own TTL (a clock far off, a
 * holder with a longer TTL), plus jitter.
 *
 * <p>An expiry already past is believed while it is past by less than {@link #BELIEVED} and
 * for at most {@link #ANSWERS_BELIEVED} answers in a row: the server frees an expired key a
 * little late (150 to 300 ms measured on nats-server 2.15.1). Beyond that this clock runs
 * ahead of the server's, and the wait is two thirds of the TTL, the rate a renewing holder
 * allows, rather than a poll every few hundred ms. A renewal the server accepted of the very
 * acquisition whose expiry read as past (same holder and incarnation, same acquired_at, a
 * higher revision) proves the server held the key at least that much longer than this clock
 * said: {@code clockAheadNanos} grows by it, and later expiries are read corrected by it.
 *
 * <p>Unless the store forgot to expire it: a store recovered after a crash can bring back a lease
 * long past its expiry, which nothing expires again (nats-server#6781; dagnats removes such a lease
 * from 2 s past its expiry on the server's clock, ADR-035, an older dagnats may grant its holder
 * back). One revision answered past its expiry at two readings more than its TTL (plus
 * {@link #BELIEVED}) apart on the monotonic clock cannot be a live lease, whatever any wall clock
 * says: a live one is renewed, or freed, within its TTL of being written, and it was written before
 * the first reading. A renewal of such a lease teaches nothing about this clock.
 *
 * @param clockAheadNanos  how far this wall clock is known to run ahead of the server's
 * @param lastPastExpiry   the last answer, if its expiry read as already past
 * @param lastPastByNanos  how far past it read
 * @param lastReadAtNanos  when it was read, on the monotonic clock
 * @param pastInARow       answers in a row whose expiry read as past
 * @param pastSinceNanos   when the revision of {@code lastPastExpiry} was first read as past, on the monotonic clock
 */
record ExpiryFallback(long clockAheadNanos, Optional<LeaseView> lastPastExpiry, long lastPastByNanos,
        long lastReadAtNanos, int pastInARow, long pastSinceNanos) {

    static final Duration BELIEVED = Duration.ofSeconds(2);
    static final int ANSWERS_BELIEVED = 4;
    /** The wait is this long after the holder's advisory expiry (the server frees the key by then)... */
    static final long AFTER_EXPIRY_NANOS = Duration.ofMillis(100).toNanos();
    /** ...plus up to this much jitter, so the waiters of one key do not ask at once. */
    static final int JITTER_MS = 200;
    private static final long FLOOR_NANOS = Duration.ofMillis(50).toNanos();

    static final ExpiryFallback NOTHING_LEARNT = new ExpiryFallback(0, Optional.empty(), 0, 0, 0, 0);

    ExpiryFallback {
        Objects.requireNonNull(lastPastExpiry, "lastPastExpiry");
    }

    /** The wait before asking again, and what this reading taught. */
    record Wait(long nanos, ExpiryFallback after) {
    }

    /**
     * @param lease       the answer naming another holder
     * @param jitterNanos 0 to {@link #JITTER_MS} ms, drawn by the caller
     */
    Wait after(LeaseView lease, Instant wallNow, long nowNanos, long ttlNanos, long jitterNanos) {
        long clockAhead = clockAheadNanos;
        if (lastPastExpiry.isPresent() && renewedSince(lastPastExpiry.get(), lease)
                && !forgottenByTheStore(lastPastExpiry.get(), pastSinceNanos, lastReadAtNanos)) {
            // Still held then, and at least until this renewal, which came after that reading.
            clockAhead += lastPastByNanos + (nowNanos - lastReadAtNanos);
        }
        long untilExpiry = clampedNanos(Duration.between(wallNow, lease.expiresAt())) + clockAhead;
        boolean past = untilExpiry <= 0;
        boolean sameAsLast = lastPastExpiry.isPresent() && sameWrite(lastPastExpiry.get(), lease);
        ExpiryFallback learnt = new ExpiryFallback(clockAhead, past ? Optional.of(lease) : Optional.empty(),
                Math.max(0, -untilExpiry), nowNanos, past ? pastInARow + 1 : 0,
                past && sameAsLast ? pastSinceNanos : nowNanos);
        if (past && (learnt.pastInARow > ANSWERS_BELIEVED || -untilExpiry >= BELIEVED.toNanos())) {
            return new Wait(ttlNanos * 2 / 3 + jitterNanos, learnt);
        }
        return new Wait(Math.max(FLOOR_NANOS, Math.min(ttlNanos, untilExpiry + AFTER_EXPIRY_NANOS)) + jitterNanos,
                learnt);
    }

    /** A wait in nanoseconds, a year at most either way: an expiry centuries off overflows no long. */
    private static long clampedNanos(Duration between) {
        Duration year = Duration.ofDays(366);
        return between.compareTo(year) > 0 ? year.toNanos() : between.compareTo(year.negated()) < 0
                ? -year.toNanos() : between.toNanos();
    }

    /** Read past its expiry at readings further apart than its TTL: no live lease, a store that forgot it. */
    private static boolean forgottenByTheStore(LeaseView lease, long firstReadNanos, long lastReadNanos) {
        return lastReadNanos - firstReadNanos > lease.ttl().millis() * 1_000_000L + BELIEVED.toNanos();
    }

    private static boolean sameWrite(LeaseView earlier, LeaseView later) {
        return earlier.claimant().equals(later.claimant()) && earlier.revision().equals(later.revision());
    }

    private static boolean renewedSince(LeaseView earlier, LeaseView later) {
        return earlier.claimant().equals(later.claimant()) && earlier.acquiredAt().equals(later.acquiredAt())
                && earlier.revision().isBelow(later.revision());
    }
}
