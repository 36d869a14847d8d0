package io.dagnats.leases.adapters.otel;

import io.dagnats.leases.application.LeaseCensus;
import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Lease telemetry on OpenTelemetry: a CONSUMER span per lease request that
 * continues the caller's W3C trace context, CLIENT spans for the JetStream
 * reads and writes and a PRODUCER span for each forward attempt under it, and
 * request, duration, forward-attempt and lease-event metrics. Names and kinds
 * follow the messaging semantic conventions ({@link MessagingSpan}); lease
 * attributes carry the lease key, holder and revision. A fault of telemetry itself is
 * logged once per place it happens ({@link TelemetryFaults}) and never reaches
 * the request.
 */
public final class OpenTelemetryLeaseTelemetry implements LeaseTelemetry {

    static final String INSTRUMENTATION_SCOPE = "io.dagnats.leases";

    /**
     * Bucket boundaries of the latency histograms, in seconds: 50 µs to 10 s in steps of
     * 1, 2.5 and 5 per decade. A lease call takes from under a millisecond (a renew on one
     * local server) to the JetStream timeout (2 s by default); the SDK's default boundaries
     * (0, 5, 10, ... 10 000) are made for milliseconds and would put every call in the first.
     * Advice only: a View an operator configures, or an exponential default histogram
     * aggregation for OTLP, still wins.
     */
    static final List<Double> LATENCY_BOUNDARIES = List.of(
            0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
            1.0, 2.5, 5.0, 10.0);

    private static final TextMapGetter<Map<String, String>> MAP_GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    private final Tracer tracer;
    private final TextMapPropagator propagator;
    private final LongCounter requests;
    private final DoubleHistogram duration;
    private final LongCounter forwardAttempts;
    private final AtomicLong supported = new AtomicLong();
    private final LeaseEvents events;
    private final CensusGauges census;
    private final ServerAddress server;
    private final TelemetryFaults faults;

    /**
     * @param connectedUrl   the URL of the NATS server the connection is on (null while on none),
     *                       for {@code server.address} and {@code server.port}
     * @param countsExpiries whether {@link #expired} will be told of expiries (metrics are exported)
     */
    public OpenTelemetryLeaseTelemetry(OpenTelemetry openTelemetry, Supplier<String> connectedUrl,
            boolean countsExpiries) {
        this(openTelemetry, connectedUrl, countsExpiries, new TelemetryFaults());
    }

    /** @param faults where a fault of telemetry itself is reported; tests collect them */
    OpenTelemetryLeaseTelemetry(OpenTelemetry openTelemetry, Supplier<String> connectedUrl, boolean countsExpiries,
            TelemetryFaults faults) {
        Objects.requireNonNull(openTelemetry, "openTelemetry");
        this.faults = Objects.requireNonNull(faults, "faults");
        this.server = new ServerAddress(Objects.requireNonNull(connectedUrl, "connectedUrl"));
        tracer = openTelemetry.getTracer(INSTRUMENTATION_SCOPE);
        propagator = openTelemetry.getPropagators().getTextMapPropagator();
        Meter meter = openTelemetry.getMeter(INSTRUMENTATION_SCOPE);
        requests = meter.counterBuilder("dagnats.lease.requests")
                .setDescription("Lease requests answered, by operation and outcome")
                .setUnit("{request}")
                .build();
        duration = meter.histogramBuilder("dagnats.lease.request.duration")
                .setDescription("Time from receiving a lease request to replying")
                .setUnit("s")
                .setExplicitBucketBoundariesAdvice(LATENCY_BOUNDARIES)
                .build();
        forwardAttempts = meter.counterBuilder("dagnats.lease.forward.attempts")
                .setDescription("Requests sent to owners' inboxes, by result")
                .setUnit("{attempt}")
                .build();
        meter.gaugeBuilder("dagnats.lease.supported")
                .setDescription("1 when the server can serve leases, 0 when not")
                .setUnit("1")
                .ofLongs()
                .buildWithCallback(measurement -> measurement.record(supported.get()));
        events = new LeaseEvents(meter, countsExpiries);
        census = new CensusGauges(meter);
    }

    @Override
    public RequestRecord startRequest(String operation, String subject, Map<String, String> headers) {
        try {
            Context parent = headers.isEmpty() ? Context.root() : propagator.extract(Context.root(), headers, MAP_GETTER);
            // A received request, pushed to its handler: "process", a CONSUMER span (the current
            // messaging conventions give process that kind, reply or not).
            Span span = MessagingSpan.builder(tracer, SpanKind.CONSUMER, "process", "process", subject, null, server)
                    .setParent(parent)
                    .setAttribute(LeaseAttributes.CONSUMER_GROUP, LeaseSubjects.QUEUE_GROUP)
                    .setAttribute(LeaseAttributes.LEASE_OPERATION, operation)
                    .startSpan();
            return new RequestSpan(operation, span, System.nanoTime(), requests, duration, events, faults);
        } catch (RuntimeException fault) {
            faults.report("starting a request span", fault);
            return RequestRecord.NONE;
        }
    }

    @Override
    public Map<String, String> outgoingHeaders() {
        try {
            Map<String, String> headers = new HashMap<>(4);
            propagator.inject(Context.current(), headers, Map::put);
            return headers;
        } catch (RuntimeException fault) {
            faults.report("writing trace context headers", fault);
            return Map.of();
        }
    }

    @Override
    public void leasesSupported(boolean isSupported) {
        supported.set(isSupported ? 1 : 0);
    }

    @Override
    public void expired(LeaseKey key, Fence lastRevision) {
        try {
            events.expired(key, lastRevision);
        } catch (RuntimeException fault) {
            faults.report("counting an expiry", fault);
        }
    }

    @Override
    public void census(LeaseCensus.Count count) {
        census.set(count);
    }

    @Override
    public LeaseStore observe(LeaseStore store) {
        return new TracedLeaseStore(store, tracer, server, events, faults);
    }

    @Override
    public OwnerInbox observe(OwnerInbox inbox) {
        return new TracedOwnerInbox(inbox, tracer, server, forwardAttempts, faults);
    }
}
