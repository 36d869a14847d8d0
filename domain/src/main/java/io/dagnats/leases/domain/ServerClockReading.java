package io.dagnats.leases.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One reading of the store server's wall clock, and when its answer arrived on this process's
 * monotonic clock. It tells how late the server's clock is at least, never what this process's
 * own wall clock says: the server stamped its time somewhere between the request's send and the
 * answer's arrival, and its clock has moved on at least as far as the monotonic one since, so
 * taking the arrival as the stamp's moment errs on the early side by the round trip.
 *
 * @param serverTime      the server's clock as it answered
 * @param answeredAtNanos when the answer arrived, on a {@link MonotonicClock}
 */
public record ServerClockReading(Instant serverTime, long answeredAtNanos) {

    /**
     * How old a reading may be and still be used. Between two readings (every 2 s) the server's
     * clock could be stepped back (NTP) without this process knowing; a reading this old is not
     * trusted at all, so such a step shifts a judgement for seconds at most.
     */
    public static final Duration LONGEST_TRUSTED = Duration.ofSeconds(10);

    public ServerClockReading {
        Objects.requireNonNull(serverTime, "serverTime");
    }

    /**
     * The earliest the server's clock can read at {@code nowNanos}; empty when the reading is older
     * than {@link #LONGEST_TRUSTED} (or from the future: another monotonic origin), so unusable.
     */
    public Optional<Instant> serverTimeAtLeast(long nowNanos) {
        long elapsed = nowNanos - answeredAtNanos;
        if (elapsed < 0 || elapsed > LONGEST_TRUSTED.toNanos()) {
            return Optional.empty();
        }
        return Optional.of(serverTime.plusNanos(elapsed));
    }
}
