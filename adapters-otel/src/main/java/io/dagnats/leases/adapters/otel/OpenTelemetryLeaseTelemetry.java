package io.dagnats.leases.adapters.otel;

import io.dagnats.leases.application.LeaseTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lease telemetry as OpenTelemetry metrics. With an unconfigured
 * {@link OpenTelemetry} (the no-op) every call costs next to nothing.
 */
public final class OpenTelemetryLeaseTelemetry implements LeaseTelemetry {

    static final String INSTRUMENTATION_SCOPE = "io.dagnats.leases";
    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("dagnats.lease.operation");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("dagnats.lease.outcome");

    private final LongCounter requests;
    private final DoubleHistogram duration;
    private final AtomicLong supported = new AtomicLong();

    public OpenTelemetryLeaseTelemetry(OpenTelemetry openTelemetry) {
        Meter meter = Objects.requireNonNull(openTelemetry, "openTelemetry").getMeter(INSTRUMENTATION_SCOPE);
        requests = meter.counterBuilder("dagnats.lease.requests")
                .setDescription("Lease requests answered, by operation and outcome")
                .setUnit("{request}")
                .build();
        duration = meter.histogramBuilder("dagnats.lease.request.duration")
                .setDescription("Time from receiving a lease request to replying")
                .setUnit("s")
                .build();
        meter.gaugeBuilder("dagnats.lease.supported")
                .setDescription("1 when the server can serve leases, 0 when not")
                .setUnit("1")
                .ofLongs()
                .buildWithCallback(measurement -> measurement.record(supported.get()));
    }

    @Override
    public void requestHandled(String operation, String outcome, long durationNanos) {
        requests.add(1, Attributes.of(OPERATION, operation, OUTCOME, outcome));
        duration.record(durationNanos / 1e9, Attributes.of(OPERATION, operation));
    }

    @Override
    public void leasesSupported(boolean isSupported) {
        supported.set(isSupported ? 1 : 0);
    }
}
