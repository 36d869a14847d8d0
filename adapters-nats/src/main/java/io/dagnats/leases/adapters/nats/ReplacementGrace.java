package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Tenure;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** How long a bucket that replaced another grants no free key (ADR-026 rule 6), and the clock bound it rests on. */
final class ReplacementGrace {

    /** A bound for the offset between the clocks of dagnats hosts and the NATS servers (NTP keeps them within ms). */
    static final Duration CLOCK_OFFSET = Duration.ofSeconds(1);

    /**
     * How long after a replacement bucket's creation the owners of the bucket before it may
     * still act: the longest lease the contract allows, its holders' safety margin, and the
     * clock offset. No free key is granted in that time.
     */
    static final Duration GRACE = Duration.ofMillis(LeaseTtl.MAX_MILLIS)
            .plus(Tenure.safetyMargin(new LeaseTtl(LeaseTtl.MAX_MILLIS)))
            .plus(CLOCK_OFFSET);

    private ReplacementGrace() {
    }

    /** When free keys may be granted in a replacement bucket created at {@code created}, to the millisecond above. */
    static Instant graceEnd(Instant created) {
        Instant end = created.plus(GRACE);
        Instant millis = end.truncatedTo(ChronoUnit.MILLIS);
        return millis.equals(end) ? end : millis.plusMillis(1);
    }
}
