package io.dagnats.leases.bootstrap;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Everything the service is configured with, read once at start from the
 * environment. Connection settings use the names the NATS tools already use;
 * dagnats' own start with {@code DAGNATS_}, and a misspelt one stops the start
 * with a sentence that names it.
 */
public record Settings(
        String natsUrl,
        Optional<Path> credsFile,
        Optional<Path> nkeySeedFile,
        Optional<String> user,
        Optional<String> password,
        Optional<String> token,
        Optional<Path> tlsCa,
        Optional<Path> tlsCert,
        Optional<Path> tlsKey,
        int leaseReplicas,
        Duration markerTtl,
        Duration jetStreamTimeout,
        Duration drainTimeout,
        Map<String, String> telemetry) {

    public static final String DEFAULT_NATS_URL = "nats://127.0.0.1:4222";

    /** Each setting with its meaning, for the error message and the README's table. */
    static final Map<String, String> DAGNATS_SETTINGS = Map.of(
            "DAGNATS_LEASE_REPLICAS", "replicas of the leases bucket when dagnats creates it, and the fewest an existing one may have (1 to 5, default 1)",
            "DAGNATS_MARKER_TTL_SECONDS", "how long expiry markers and release tombstones stay (seconds, default 60)",
            "DAGNATS_JETSTREAM_TIMEOUT_MS", "how long one JetStream request may take (100 to 60000, default 2000)",
            "DAGNATS_DRAIN_TIMEOUT_MS", "how long a stop waits for requests in flight (default 10000)");

    public Settings {
        telemetry = Map.copyOf(telemetry);
        if (user.isPresent() != password.isPresent()) {
            throw new IllegalArgumentException("NATS_USER and NATS_PASSWORD go together: set both or neither");
        }
        if (tlsCert.isPresent() != tlsKey.isPresent()) {
            throw new IllegalArgumentException("NATS_CERT and NATS_KEY go together: set both or neither");
        }
        int ways = (credsFile.isPresent() ? 1 : 0) + (nkeySeedFile.isPresent() ? 1 : 0)
                + (user.isPresent() ? 1 : 0) + (token.isPresent() ? 1 : 0);
        if (ways > 1) {
            throw new IllegalArgumentException(
                    "set one way to authenticate: NATS_CREDS, NATS_NKEY, NATS_USER/NATS_PASSWORD or NATS_TOKEN");
        }
    }

    /** Settings for a server at {@code natsUrl} with every other setting at its default. */
    public static Settings forUrl(String natsUrl) {
        return fromEnvironment(Map.of("NATS_URL", natsUrl));
    }

    /** @throws IllegalArgumentException naming the setting that is wrong */
    public static Settings fromEnvironment(Map<String, String> environment) {
        Set<String> unknown = new TreeSet<>();
        for (String name : environment.keySet()) {
            if (name.startsWith("DAGNATS_") && !DAGNATS_SETTINGS.containsKey(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown setting " + String.join(", ", unknown)
                    + "; dagnats knows " + String.join(", ", new TreeSet<>(DAGNATS_SETTINGS.keySet())));
        }
        Reader reader = new Reader(environment);
        return new Settings(
                reader.text("NATS_URL").orElse(DEFAULT_NATS_URL),
                reader.file("NATS_CREDS"),
                reader.file("NATS_NKEY"),
                reader.text("NATS_USER"),
                reader.text("NATS_PASSWORD"),
                reader.text("NATS_TOKEN"),
                reader.file("NATS_CA"),
                reader.file("NATS_CERT"),
                reader.file("NATS_KEY"),
                (int) reader.number("DAGNATS_LEASE_REPLICAS", 1, 1, 5),
                Duration.ofSeconds(reader.number("DAGNATS_MARKER_TTL_SECONDS", 60, 1, 86_400)),
                Duration.ofMillis(reader.number("DAGNATS_JETSTREAM_TIMEOUT_MS", 2_000, 100, 60_000)),
                Duration.ofMillis(reader.number("DAGNATS_DRAIN_TIMEOUT_MS", 10_000, 0, 600_000)),
                otelVariables(environment));
    }

    /** The OTEL_* variables, for the OpenTelemetry SDK's own autoconfiguration. */
    private static Map<String, String> otelVariables(Map<String, String> environment) {
        Map<String, String> otel = new java.util.TreeMap<>();
        environment.forEach((name, value) -> {
            if (name.startsWith("OTEL_") && value != null && !value.isBlank()) {
                otel.put(name, value);
            }
        });
        return otel;
    }

    /** Settings for a server at {@code natsUrl}, with {@code otel} as the OTEL_* variables. */
    public static Settings forUrl(String natsUrl, Map<String, String> otel) {
        Map<String, String> environment = new java.util.HashMap<>(otel);
        environment.put("NATS_URL", natsUrl);
        return fromEnvironment(environment);
    }

    /** The settings in force, secrets left out, for the start-up log. */
    String describeAuthentication() {
        List<String> parts = new ArrayList<>();
        credsFile.ifPresent(path -> parts.add("creds " + path));
        nkeySeedFile.ifPresent(path -> parts.add("nkey " + path));
        user.ifPresent(name -> parts.add("user " + name));
        token.ifPresent(ignored -> parts.add("token"));
        tlsCa.ifPresent(path -> parts.add("TLS CA " + path));
        tlsCert.ifPresent(path -> parts.add("TLS client certificate " + path));
        return parts.isEmpty() ? "no authentication" : String.join(", ", parts);
    }

    private record Reader(Map<String, String> environment) {

        Optional<String> text(String name) {
            String value = environment.get(name);
            return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
        }

        Optional<Path> file(String name) {
            Optional<String> value = text(name);
            if (value.isEmpty()) {
                return Optional.empty();
            }
            Path path = Path.of(value.get());
            if (!Files.isReadable(path)) {
                throw new IllegalArgumentException(name + " names " + path + ", which is not a readable file");
            }
            return Optional.of(path);
        }

        long number(String name, long defaultValue, long min, long max) {
            Optional<String> value = text(name);
            if (value.isEmpty()) {
                return defaultValue;
            }
            long parsed;
            try {
                parsed = Long.parseLong(value.get());
            } catch (NumberFormatException notANumber) {
                throw new IllegalArgumentException(name + " must be a whole number, not \"" + value.get() + "\"");
            }
            if (parsed < min || parsed > max) {
                throw new IllegalArgumentException(name + " must be from " + min + " to " + max + ", not " + parsed);
            }
            return parsed;
        }
    }
}
