package io.dagnats.leases.domain;

/**
 * A clock that only moves forward, for deadlines. Wall time can jump (NTP,
 * a VM resumed); a holder's "stop acting as owner" deadline must not.
 */
@FunctionalInterface
public interface MonotonicClock {

    /** The system's monotonic clock. */
    MonotonicClock SYSTEM = System::nanoTime;

    /** Nanoseconds from an arbitrary origin; only differences mean anything. */
    long nanoTime();
}
