package io.dagnats.leases.bootstrap;

import io.dagnats.leases.adapters.otel.TelemetrySetup;
import io.dagnats.leases.protocol.ServiceDescription;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How this instance is set up, as its service metadata publishes it (ADR-030) and
 * {@code dagnats status} shows it: the start line is kept short and its details line reaches only
 * whoever reads the log, while an operator asks the running service. Nothing secret: the way of
 * authenticating is named, never its credentials or their files.
 */
final class ServiceDetails {

    private static final String NONE = "none";
    /** The OTLP endpoint variables, the general one first: the first set is the one named. */
    private static final List<String> OTLP_ENDPOINTS = List.of("OTEL_EXPORTER_OTLP_ENDPOINT",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT");

    private ServiceDetails() {
    }

    /** @param http where the probes and /metrics listen; empty without {@code DAGNATS_HTTP_PORT} */
    static Map<String, String> of(Settings settings, TelemetrySetup telemetry, Optional<InetSocketAddress> http) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put(ServiceDescription.AUTHENTICATION, authentication(settings.connection()));
        details.put(ServiceDescription.TLS, tls(settings.connection(), settings.tls()));
        details.put(ServiceDescription.IDENTITY_MODE,
                settings.identity().identity().mode().name().toLowerCase(Locale.ROOT));
        details.put(ServiceDescription.TELEMETRY, telemetry.describe());
        details.put(ServiceDescription.OTLP_ENDPOINT, telemetry.enabled() ? otlpEndpoint(settings.telemetry()) : NONE);
        details.put(ServiceDescription.METRICS_PORT, http.map(address -> Integer.toString(address.getPort())).orElse(NONE));
        return details;
    }

    static String authentication(ConnectionSettings connection) {
        return connection.credsFile().isPresent() ? "creds"
                : connection.nkeySeedFile().isPresent() ? "nkey"
                : connection.user().isPresent() ? "user"
                : connection.token().isPresent() ? "token" : NONE;
    }

    static String tls(ConnectionSettings connection, TlsSettings tls) {
        List<String> files = new ArrayList<>();
        tls.ca().ifPresent(ignored -> files.add("CA file"));
        tls.certificate().ifPresent(ignored -> files.add("client certificate"));
        boolean tlsUrl = connection.natsUrl().strip().toLowerCase(Locale.ROOT).matches("(tls|wss)://.*");
        if (files.isEmpty()) {
            return tlsUrl ? "on (the JDK's trust store)" : "off";
        }
        return "on (" + String.join(", ", files) + ")";
    }

    /** The endpoint a user set, any user info in it left out; {@code none} when none is. */
    static String otlpEndpoint(TelemetrySettings telemetry) {
        return OTLP_ENDPOINTS.stream().map(telemetry.otelVariables()::get).filter(value -> value != null)
                .findFirst().map(endpoint -> endpoint.replaceFirst("//[^/@]*@", "//")).orElse(NONE);
    }
}
