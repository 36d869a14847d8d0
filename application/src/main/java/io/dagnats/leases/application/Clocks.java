package io.dagnats.leases.application;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

final class Clocks {
    private Clocks() {
    }

    /** Millisecond precision: what is stored reads back exactly as it was answered. */
    static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
