package io.dagnats.leases.bootstrap;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code OTEL_*} variables, handed as they are to the OpenTelemetry SDK's own
 * autoconfiguration, which knows their names and checks them; none means telemetry is off.
 */
public record TelemetrySettings(Map<String, String> otelVariables) {

    public TelemetrySettings {
        otelVariables = Map.copyOf(otelVariables);
    }

    /**
     * @throws IllegalArgumentException for {@code OTEL_METRICS_EXPORTER=prometheus}: dagnats serves the
     *         scrape itself, on its HTTP port beside the probes
     */
    static TelemetrySettings from(Map<String, String> environment) {
        Map<String, String> otel = new TreeMap<>();
        environment.forEach((name, value) -> {
            if (name.startsWith("OTEL_") && value != null && !value.isBlank()) {
                otel.put(name, value);
            }
        });
        String exporters = otel.getOrDefault("OTEL_METRICS_EXPORTER", "");
        if (Arrays.stream(exporters.split(",")).map(String::strip).anyMatch("prometheus"::equals)) {
            throw new IllegalArgumentException("OTEL_METRICS_EXPORTER=prometheus is not how dagnats serves Prometheus:"
                    + " set " + HttpSettings.PORT + " and scrape /metrics there, beside the probes (docs/telemetry.md)");
        }
        return new TelemetrySettings(otel);
    }
}
