package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.DagnatsProcess;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.WireClient;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code dagnats status} shows how each running instance is set up, as the instance itself
 * publishes it: authentication, TLS, identity mode, telemetry, the OTLP endpoint and the metrics
 * port, which the short start line leaves to its details line in the log. Never the secret.
 */
class StatusDetailsAcceptanceTest {

    private static final String TOKEN = "status-details-secret";

    @Test
    void statusShowsTheAuthenticationAndTelemetryTheRunningInstanceReports() throws Exception {
        int[] ports = NatsServerProcess.distinctFreePorts(2);
        String httpPort = Integer.toString(ports[0]);
        // Nobody listens there: a metrics export (every 60 s by default) would only log a warning.
        String otlp = "http://127.0.0.1:" + ports[1] + "/v1/metrics";
        try (NatsServerProcess nats = NatsServerProcess.modern("--auth", TOKEN);
                DagnatsProcess dagnats = DagnatsProcess.start(Map.of("NATS_URL", nats.url(), "NATS_TOKEN", TOKEN,
                        "DAGNATS_HTTP_PORT", httpPort, "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", otlp))) {
            Map<String, String> cli = Map.of("NATS_URL", nats.url(), "NATS_TOKEN", TOKEN);

            CliProcess.Result table = CliProcess.run(cli, "status");
            CliProcess.Result json = CliProcess.run(cli, "status", "-o", "json");

            assertEquals(0, table.exitCode(), table.toString());
            assertRow(table, "authentication", "token");
            assertRow(table, "TLS", "off");
            assertRow(table, "identity mode", "off");
            assertRow(table, "telemetry", "telemetry on (traces: none, metrics: otlp and prometheus scrape,"
                    + " service.name dagnats)");
            assertRow(table, "OTLP endpoint", otlp);
            assertRow(table, "metrics port", httpPort);
            assertFalse(table.out().contains(TOKEN), "the token is never shown: " + table);

            assertEquals(0, json.exitCode(), json.toString());
            JsonNode metadata = WireClient.JSON.readTree(json.out()).path("instances").get(0).path("metadata");
            assertEquals("token", metadata.path("authentication").asText(), metadata.toString());
            assertEquals("off", metadata.path("tls").asText());
            assertEquals("off", metadata.path("identity_mode").asText());
            assertEquals(otlp, metadata.path("otlp_endpoint").asText());
            assertEquals(httpPort, metadata.path("metrics_port").asText());
            assertFalse(json.out().contains(TOKEN), "the token is never shown: " + json);
        }
    }

    @Test
    void withoutHttpOrTelemetryStatusSaysNone() {
        try (NatsServerProcess nats = NatsServerProcess.modern();
                DagnatsProcess dagnats = DagnatsProcess.start(nats.url())) {
            CliProcess.Result table = CliProcess.run(nats.url(), "status");

            assertEquals(0, table.exitCode(), table.toString());
            assertRow(table, "authentication", "none");
            assertRow(table, "OTLP endpoint", "none");
            assertRow(table, "metrics port", "none");
            assertTrue(table.outLines().stream().anyMatch(line -> line.matches("telemetry\\s+telemetry off .*")),
                    table.toString());
        }
    }

    private static void assertRow(CliProcess.Result table, String label, String value) {
        Pattern row = Pattern.compile(Pattern.quote(label) + "\\s+" + Pattern.quote(value));
        assertTrue(table.outLines().stream().anyMatch(line -> row.matcher(line).matches()),
                "a row \"" + label + "  " + value + "\" in:\n" + table);
    }
}
