package io.dagnats.leases.adapters.otel;

import io.opentelemetry.exporter.prometheus.PrometheusMetricReader;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The service's metrics in the Prometheus text format, collected at each scrape
 * from the same meter provider, and so the same instruments, as every other
 * exporter: OpenTelemetry's own Prometheus reader, a pull reader registered on
 * the SDK, turns them into Prometheus' client_java snapshots (names the
 * Prometheus way: dots to underscores, {@code _total} on counters, the unit as a
 * suffix), and client_java's writer writes them. Nothing is hand-written here.
 */
public final class PrometheusScrape {

    /**
     * No {@code target_info}: the reader writes it without HELP, which promtool refuses, and a
     * Prometheus server labels every scrape with its own job and instance anyway.
     */
    private final PrometheusMetricReader reader = PrometheusMetricReader.builder()
            .setTargetInfoMetricEnabled(false).build();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    PrometheusScrape() {
    }

    /** The reader to register on the SDK's meter provider, once. */
    MetricReader reader() {
        return reader;
    }

    /** {@code text/plain; version=0.0.4; charset=utf-8}. */
    public String contentType() {
        return writer.getContentType();
    }

    /** Collects every metric now and writes them to {@code out}. */
    public void writeTo(OutputStream out) throws IOException {
        writer.write(out, reader.collect());
    }
}
