package io.dagnats.leases.benchmarks;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.traces.ConfigurableSpanExporterProvider;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code OTEL_TRACES_EXPORTER=discard}: the whole SDK pipeline (spans, batch
 * processor, export calls) without a network, so the benchmark measures what
 * tracing costs the service rather than what a backend costs the machine.
 */
public final class DiscardingSpanExporterProvider implements ConfigurableSpanExporterProvider {

    static final AtomicLong EXPORTED = new AtomicLong();

    @Override
    public SpanExporter createExporter(ConfigProperties config) {
        return new SpanExporter() {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
                EXPORTED.addAndGet(spans.size());
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode flush() {
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode shutdown() {
                return CompletableResultCode.ofSuccess();
            }
        };
    }

    @Override
    public String getName() {
        return "discard";
    }
}
