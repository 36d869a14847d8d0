package io.dagnats.leases.bootstrap;

import io.dagnats.leases.adapters.nats.LeaseBucket;
import io.dagnats.leases.cli.NearestName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Everything the service is configured with, read once at start from the
 * environment, one record per concern. Connection settings use the names the
 * NATS tools already use; dagnats' own start with {@code DAGNATS_}, and a
 * misspelt one stops the start with a sentence that names it.
 */
public record Settings(
        ConnectionSettings connection,
        TlsSettings tls,
        LeaseBucket.Settings bucket,
        ServiceSettings service,
        TelemetrySettings telemetry,
        IdentitySettings identity,
        HttpSettings http) {

    /** Settings for a server at {@code natsUrl} with every other setting at its default. */
    public static Settings forUrl(String natsUrl) {
        return fromEnvironment(Map.of("NATS_URL", natsUrl));
    }

    /** Settings for a server at {@code natsUrl}, with {@code otel} as the OTEL_* variables. */
    public static Settings forUrl(String natsUrl, Map<String, String> otel) {
        Map<String, String> environment = new HashMap<>(otel);
        environment.put("NATS_URL", natsUrl);
        return fromEnvironment(environment);
    }

    /** @throws IllegalArgumentException naming the setting that is wrong */
    public static Settings fromEnvironment(Map<String, String> environment) {
        Set<String> unknown = new TreeSet<>();
        for (String name : environment.keySet()) {
            if (name.startsWith("DAGNATS_") && !KnownSettings.dagnatsNames().contains(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            // The guess for the first; several misspelt names at once are rare, and each is listed.
            String guess = NearestName.of(unknown.iterator().next(), KnownSettings.dagnatsNames(), "DAGNATS_")
                    .map(nearest -> "; did you mean " + nearest + "?").orElse(";");
            throw new IllegalArgumentException("unknown setting " + String.join(", ", unknown) + guess
                    + " dagnats knows " + String.join(", ", KnownSettings.dagnatsNames()));
        }
        EnvironmentReader reader = new EnvironmentReader(environment);
        return new Settings(
                ConnectionSettings.from(reader),
                TlsSettings.from(reader),
                bucket(reader),
                ServiceSettings.from(reader),
                TelemetrySettings.from(environment),
                IdentitySettings.from(reader),
                HttpSettings.from(reader));
    }

    /** The leases bucket: {@code DAGNATS_LEASE_REPLICAS} and {@code DAGNATS_MARKER_TTL_SECONDS}. */
    private static LeaseBucket.Settings bucket(EnvironmentReader reader) {
        return new LeaseBucket.Settings(
                (int) reader.number("DAGNATS_LEASE_REPLICAS", 1, 1, 5),
                Duration.ofSeconds(reader.number("DAGNATS_MARKER_TTL_SECONDS", 60, 1, 86_400)));
    }

    /** The settings in force, secrets left out, for the start-up log. */
    String describeAuthentication() {
        List<String> parts = new ArrayList<>();
        connection.describe(parts);
        tls.describe(parts);
        return parts.isEmpty() ? "no authentication" : String.join(", ", parts);
    }
}
