package io.dagnats.leases.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * When the store itself should have freed a lease: its stored message's own time stamp plus that
 * message's TTL, both the server's. A store recovered after a crash can bring back a message its
 * TTL had already removed (nats-server writes no tombstone for a TTL expiry, nats-server#6781), and
 * nothing expires it again; this rule tells such a lease from a live one, on the server's clock
 * only, so no clock skew between this process and the server can free a live lease.
 *
 * @param storedAt the server's time stamp of the stored message
 * @param ttl      the message's TTL, as the server stored it
 */
public record StoreExpiry(Instant storedAt, Duration ttl) {

    /**
     * How far past its expiry on the server's clock a lease must be before it is taken as one the
     * store forgot. The server frees an expired key 150 to 300 ms late (measured on nats-server
     * 2.15.1, ExpiryLagAcceptanceTest); 2 s is well beyond that lag, so the service never races the
     * server's own expiry, and beyond the clock offset NTP leaves between the servers of one cluster
     * (the server that stamped the message and the one whose clock was read may differ).
     * Safety does not rest on the number: a holder stops acting as owner before the server's own
     * expiry (the holder rules), so any lease past its server expiry has no owner acting.
     */
    public static final Duration MARGIN = Duration.ofSeconds(2);

    public StoreExpiry {
        Objects.requireNonNull(storedAt, "storedAt");
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("a lease's TTL is positive");
        }
    }

    /** The server's own expiry of the lease. */
    public Instant expiresAt() {
        return storedAt.plus(ttl);
    }

    /**
     * How long ago the store should have freed the key, when it is past by more than
     * {@link #MARGIN} at the earliest the server's clock can read now; empty for a lease the server
     * may still hold (or is about to free itself), and when the server's clock is not known.
     */
    public Optional<Duration> forgottenFor(Optional<Instant> serverTimeAtLeast) {
        if (serverTimeAtLeast.isEmpty()) {
            return Optional.empty();
        }
        Duration late = Duration.between(expiresAt(), serverTimeAtLeast.get());
        return late.compareTo(MARGIN) > 0 ? Optional.of(late) : Optional.empty();
    }
}
