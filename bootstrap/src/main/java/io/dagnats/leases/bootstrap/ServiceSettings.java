package io.dagnats.leases.bootstrap;

import java.time.Duration;

/**
 * How the service waits: on one JetStream request ({@code DAGNATS_JETSTREAM_TIMEOUT_MS})
 * and, when stopping, on the requests in flight ({@code DAGNATS_DRAIN_TIMEOUT_MS}).
 */
public record ServiceSettings(Duration jetStreamTimeout, Duration drainTimeout) {

    static ServiceSettings from(EnvironmentReader reader) {
        return new ServiceSettings(
                Duration.ofMillis(reader.number("DAGNATS_JETSTREAM_TIMEOUT_MS", 2_000, 100, 60_000)),
                Duration.ofMillis(reader.number("DAGNATS_DRAIN_TIMEOUT_MS", 10_000, 0, 600_000)));
    }
}
