package io.dagnats.leases.adapters.otel;

import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.protocol.Kinds;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Lease telemetry on OpenTelemetry: a SERVER span per lease request that
 * continues the caller's W3C trace context, CLIENT spans for the JetStream
 * reads and writes and for each forward attempt under it, and request, duration
 * and forward-attempt metrics. Names follow the messaging semantic conventions;
 * lease attributes are {@code dagnats.lease.*}. A fault of telemetry itself is
 * logged once per place it happens ({@link TelemetryFaults}) and never reaches
 * the request.
 */
public final class OpenTelemetryLeaseTelemetry implements LeaseTelemetry {

    static final String INSTRUMENTATION_SCOPE = "io.dagnats.leases";

    static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("messaging.operation.name");
    static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");
    static final AttributeKey<String> CONSUMER_GROUP = AttributeKey.stringKey("messaging.consumer.group.name");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> LEASE_OPERATION = AttributeKey.stringKey("dagnats.lease.operation");
    static final AttributeKey<String> LEASE_KEY = AttributeKey.stringKey("dagnats.lease.key");
    static final AttributeKey<String> LEASE_HOLDER = AttributeKey.stringKey("dagnats.lease.holder");
    static final AttributeKey<Long> LEASE_REVISION = AttributeKey.longKey("dagnats.lease.revision");
    static final AttributeKey<String> LEASE_OUTCOME = AttributeKey.stringKey("dagnats.lease.outcome");

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
    private final TelemetryFaults faults;

    public OpenTelemetryLeaseTelemetry(OpenTelemetry openTelemetry) {
        this(openTelemetry, new TelemetryFaults());
    }

    /** @param faults where a fault of telemetry itself is reported; tests collect them */
    OpenTelemetryLeaseTelemetry(OpenTelemetry openTelemetry, TelemetryFaults faults) {
        Objects.requireNonNull(openTelemetry, "openTelemetry");
        this.faults = Objects.requireNonNull(faults, "faults");
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
    }

    @Override
    public RequestRecord startRequest(String operation, String subject, Map<String, String> headers) {
        try {
            Context parent = headers.isEmpty() ? Context.root() : propagator.extract(Context.root(), headers, MAP_GETTER);
            Span span = tracer.spanBuilder("process " + subject)
                    .setParent(parent)
                    .setSpanKind(SpanKind.SERVER)
                    .setAttribute(MESSAGING_SYSTEM, "nats")
                    .setAttribute(DESTINATION, subject)
                    .setAttribute(OPERATION_NAME, "process")
                    .setAttribute(OPERATION_TYPE, "process")
                    .setAttribute(CONSUMER_GROUP, LeaseSubjects.QUEUE_GROUP)
                    .setAttribute(LEASE_OPERATION, operation)
                    .startSpan();
            return new SpanRecord(operation, span, System.nanoTime());
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
    public LeaseStore observe(LeaseStore store) {
        return new TracedLeaseStore(store, tracer, faults);
    }

    @Override
    public OwnerInbox observe(OwnerInbox inbox) {
        return new TracedOwnerInbox(inbox, tracer, forwardAttempts, faults);
    }

    private final class SpanRecord implements RequestRecord {
        private final String operation;
        private final Span span;
        private final long startedNanos;

        SpanRecord(String operation, Span span, long startedNanos) {
            this.operation = operation;
            this.span = span;
            this.startedNanos = startedNanos;
        }

        @Override
        public <T> T within(Supplier<T> work) {
            Scope scope;
            try {
                scope = span.makeCurrent();
            } catch (RuntimeException fault) {
                faults.report("making a request span current", fault);
                return work.get();
            }
            try (scope) {
                return work.get();
            }
        }

        @Override
        public void end(Facts facts) {
            try {
                String outcome = describe(facts);
                span.setAttribute(LEASE_OUTCOME, outcome);
                span.end();
                requests.add(1, Attributes.of(LEASE_OPERATION, operation, LEASE_OUTCOME, outcome));
                duration.record((System.nanoTime() - startedNanos) / 1e9, Attributes.of(LEASE_OPERATION, operation));
            } catch (RuntimeException fault) {
                faults.report("ending a request span", fault);
            }
        }

        /** Sets what {@code facts} name on the span; returns the outcome's name. */
        private String describe(Facts facts) {
            if (facts instanceof Facts.Answered answered) {
                span.setAttribute(LEASE_KEY, answered.key().value());
                span.setAttribute(LEASE_HOLDER, answered.holder().value());
                span.setAttribute(LEASE_REVISION, answered.fence().revision());
                return outcomeName(answered.result());
            }
            if (facts instanceof Facts.Free free) {
                span.setAttribute(LEASE_KEY, free.key().value());
                return "free";
            }
            Facts.Failed failed = (Facts.Failed) facts;
            if (failed.key().isPresent()) {
                span.setAttribute(LEASE_KEY, failed.key().get().value());
            }
            if (failed.lastTried().isPresent()) {
                Lease lastTried = failed.lastTried().get();
                span.setAttribute(LEASE_HOLDER, lastTried.holder().value());
                span.setAttribute(LEASE_REVISION, lastTried.revision().revision());
            }
            String kind = Kinds.wireName(failed.kind());
            // An outcome, not an exception: bad input and lost carry no stack trace.
            span.setAttribute(ERROR_TYPE, kind);
            if (isServerFault(failed.kind())) {
                span.setStatus(StatusCode.ERROR, kind);
            }
            return kind;
        }
    }

    /** The outcome's name in spans and metrics: the lease answer, or the error reply's kind. */
    static String outcomeName(Facts.Result result) {
        return switch (result) {
            case GRANTED -> "granted";
            case HELD -> "held";
            case RENEWED -> "renewed";
            case RELEASED -> "released";
            case DELIVERED -> "delivered";
        };
    }

    /** Kinds that mean the service, not the caller, failed: the span's status is an error. */
    static boolean isServerFault(ErrorKind kind) {
        return kind == ErrorKind.INTERNAL || kind == ErrorKind.UNAVAILABLE;
    }
}
