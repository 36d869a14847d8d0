package io.dagnats.leases.domain;

import java.time.Duration;
import java.util.Optional;

/**
 * How long a lease lives after its last write. Whole seconds from 1 s to 10 min,
 * because the server truncates a message TTL to whole seconds: 1500 ms is
 * refused rather than quietly becoming 1 s.
 */
public record LeaseTtl(long millis) {
    public static final long MIN_MILLIS = 1_000;
    public static final long MAX_MILLIS = 600_000;

    public LeaseTtl {
        if (millis < MIN_MILLIS || millis > MAX_MILLIS) {
            throw new InvalidLeaseInput("ttl_ms must be from " + MIN_MILLIS + " to " + MAX_MILLIS);
        }
        if (millis % 1_000 != 0) {
            throw new InvalidLeaseInput("ttl_ms must be a whole number of seconds (a multiple of 1000)");
        }
    }

    /** {@code duration} as a lease's TTL; empty when no lease can have it (the constructor's rules). */
    public static Optional<LeaseTtl> of(Duration duration) {
        if (duration.getNano() % 1_000_000 != 0 || duration.compareTo(Duration.ofMillis(MAX_MILLIS)) > 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(new LeaseTtl(duration.toMillis()));
        } catch (InvalidLeaseInput noLeaseTtl) {
            return Optional.empty();
        }
    }

    public static LeaseTtl ofSeconds(long seconds) {
        return new LeaseTtl(Math.multiplyExact(seconds, 1_000L));
    }

    public long seconds() {
        return millis / 1_000;
    }

    public Duration duration() {
        return Duration.ofMillis(millis);
    }
}
