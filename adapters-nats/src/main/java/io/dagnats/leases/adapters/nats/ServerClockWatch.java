package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.ServerClockReading;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The store server's clock as the last look's stream info read it ({@code ts}, nats-server 2.10+),
 * what a lease the store forgot to expire is judged on (ADR-035): never this host's clock.
 */
final class ServerClockWatch {

    private final MonotonicClock monotonic;
    /** Null before any look, or from a server without {@code ts}. */
    private volatile ServerClockReading latest;

    /** @param monotonic what the age of a reading is measured on */
    ServerClockWatch(MonotonicClock monotonic) {
        this.monotonic = Objects.requireNonNull(monotonic, "monotonic");
    }

    /**
     * The earliest the store server's clock can read now, from the last look's stream info (its
     * {@code ts}, nats-server 2.10+), taken as of the answer's arrival so the round trip errs early;
     * empty before any look, for a server that sends no time, or when the last reading is older than
     * {@link ServerClockReading#LONGEST_TRUSTED}. Never this host's clock.
     */
    Optional<Instant> serverTimeAtLeast() {
        ServerClockReading reading = latest;
        return reading == null ? Optional.empty() : reading.serverTimeAtLeast(monotonic.nanoTime());
    }

    StreamInfo timedInfo(JetStreamManagement management) throws IOException, JetStreamApiException {
        StreamInfo info = BucketStream.find(management);
        long answered = monotonic.nanoTime();
        if (info != null && info.getTimestamp() != null) {
            latest = new ServerClockReading(info.getTimestamp().toInstant(), answered);
        }
        return info;
    }
}
