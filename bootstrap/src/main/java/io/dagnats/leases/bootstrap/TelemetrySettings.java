package io.dagnats.leases.bootstrap;

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

    static TelemetrySettings from(Map<String, String> environment) {
        Map<String, String> otel = new TreeMap<>();
        environment.forEach((name, value) -> {
            if (name.startsWith("OTEL_") && value != null && !value.isBlank()) {
                otel.put(name, value);
            }
        });
        return new TelemetrySettings(otel);
    }
}
