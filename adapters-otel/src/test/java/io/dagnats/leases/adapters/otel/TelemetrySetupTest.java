package io.dagnats.leases.adapters.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which exporters the OTEL_* variables turn on; nothing that was not asked for. */
class TelemetrySetupTest {

    @ParameterizedTest
    @ValueSource(strings = {"logging", "console", "logging-otlp"})
    void metricsGoToTheLogWithoutACollector(String exporter) {
        try (TelemetrySetup setup = TelemetrySetup.fromEnvironment(Map.of("OTEL_METRICS_EXPORTER", exporter), "dagnats")) {
            assertTrue(setup.enabled());
            assertTrue(setup.metricsExported());
            // No OTLP traces retrying a collector nobody named.
            assertEquals("telemetry on (traces: none, metrics: " + exporter + ", service.name dagnats)", setup.describe());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"logging", "console", "logging-otlp"})
    void spansGoToTheLogWithoutACollector(String exporter) {
        try (TelemetrySetup setup = TelemetrySetup.fromEnvironment(Map.of("OTEL_TRACES_EXPORTER", exporter), "dagnats")) {
            assertFalse(setup.metricsExported());
            assertEquals("telemetry on (traces: " + exporter + ", metrics: none, service.name dagnats)", setup.describe());
        }
    }

    @Test
    void anOtlpEndpointExportsBothOverOtlp() {
        try (TelemetrySetup setup = TelemetrySetup.fromEnvironment(
                Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1"), "dagnats")) {
            assertTrue(setup.metricsExported());
            assertEquals("telemetry on (traces: otlp, metrics: otlp, service.name dagnats)", setup.describe());
        }
    }

    @Test
    void aSignalsOwnOtlpEndpointExportsThatSignalOnly() {
        try (TelemetrySetup setup = TelemetrySetup.fromEnvironment(
                Map.of("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://127.0.0.1:1/v1/metrics"), "dagnats")) {
            assertEquals("telemetry on (traces: none, metrics: otlp, service.name dagnats)", setup.describe());
        }
    }

    @Test
    void aZipkinEndpointAloneExportsSpansToZipkin() {
        try (TelemetrySetup setup = TelemetrySetup.fromEnvironment(
                Map.of("OTEL_EXPORTER_ZIPKIN_ENDPOINT", "http://127.0.0.1:1/api/v2/spans"), "dagnats")) {
            assertEquals("telemetry on (traces: zipkin, metrics: none, service.name dagnats)", setup.describe());
        }
    }

    @Test
    void theMetricIntervalIsTheSdksReading() {
        assertEquals(Duration.ofMinutes(1), TelemetrySetup.fromEnvironment(Map.of(), "dagnats").metricInterval());
        for (Map.Entry<String, Duration> interval : Map.of("250", Duration.ofMillis(250), "15s", Duration.ofSeconds(15),
                "2m", Duration.ofMinutes(2)).entrySet()) {
            try (TelemetrySetup setup = TelemetrySetup.fromEnvironment(Map.of("OTEL_METRICS_EXPORTER", "console",
                    "OTEL_METRIC_EXPORT_INTERVAL", interval.getKey()), "dagnats")) {
                assertEquals(interval.getValue(), setup.metricInterval(), interval.getKey());
            }
        }
    }

    @Test
    void noVariableMeansOff() {
        TelemetrySetup setup = TelemetrySetup.fromEnvironment(Map.of(), "dagnats");
        assertFalse(setup.enabled());
        assertFalse(setup.metricsExported());
    }

    @Test
    void aScrapeAloneTurnsMetricsOnAndReadsTheSameInstruments() throws Exception {
        try (TelemetrySetup setup = TelemetrySetup.fromEnvironment(Map.of(), "dagnats", true)) {
            assertTrue(setup.enabled());
            assertTrue(setup.metricsExported());
            assertEquals("telemetry on (traces: none, metrics: prometheus scrape, service.name dagnats)",
                    setup.describe());
            setup.openTelemetry().getMeter("test").counterBuilder("test.scraped").setUnit("{thing}").build().add(3);

            ByteArrayOutputStream scraped = new ByteArrayOutputStream();
            setup.scrape().orElseThrow().writeTo(scraped);

            String text = scraped.toString(StandardCharsets.UTF_8);
            assertTrue(text.lines().anyMatch(line -> line.startsWith("test_scraped_total{") && line.endsWith(" 3.0")),
                    text);
            assertTrue(setup.scrape().orElseThrow().contentType().startsWith("text/plain; version=0.0.4"));
        }
    }

    @Test
    void aScrapeHoldsTheJvmsMemoryAndCpuBesideDagnatsOwnMetrics() throws Exception {
        try (TelemetrySetup setup = TelemetrySetup.fromEnvironment(Map.of(), "dagnats", true)) {
            ByteArrayOutputStream scraped = new ByteArrayOutputStream();
            setup.scrape().orElseThrow().writeTo(scraped);

            String text = scraped.toString(StandardCharsets.UTF_8);
            assertTrue(text.lines().anyMatch(line -> line.startsWith("jvm_memory_used_bytes{")), text);
            assertTrue(text.lines().anyMatch(line -> line.startsWith("jvm_cpu_time_seconds_total")), text);
        }
    }

    @Test
    void aScrapeBesideAnExporterReadsTheSameMeterProvider() {
        try (TelemetrySetup setup = TelemetrySetup.fromEnvironment(Map.of("OTEL_METRICS_EXPORTER", "console"),
                "dagnats", true)) {
            assertEquals("telemetry on (traces: none, metrics: console and prometheus scrape, service.name dagnats)",
                    setup.describe());
            assertTrue(setup.scrape().isPresent());
        }
    }

    @Test
    void aDisabledSdkScrapesNothing() {
        TelemetrySetup setup = TelemetrySetup.fromEnvironment(Map.of("OTEL_SDK_DISABLED", "true"), "dagnats", true);
        assertFalse(setup.enabled());
        assertTrue(setup.scrape().isEmpty());
        assertEquals("telemetry off (OTEL_SDK_DISABLED)", setup.describe());
    }

    @Test
    void anUnknownExporterIsRefusedWithItsName() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> TelemetrySetup.fromEnvironment(Map.of("OTEL_METRICS_EXPORTER", "prometheus-ish"), "dagnats"));
        assertTrue(refused.getMessage().contains("prometheus-ish"), refused.getMessage());
    }
}
