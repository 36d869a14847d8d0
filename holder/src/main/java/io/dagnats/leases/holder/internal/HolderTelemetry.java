package io.dagnats.leases.holder.internal;

import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.impl.Headers;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.net.URI;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The holder library's traces and metrics: PRODUCER spans for its calls to
 * dagnats (carrying W3C context in the request headers), a CONSUMER span for
 * each forwarded request it serves (continuing dagnats' context), and metrics
 * for renew slack, stale forwards, ownership changes and being owner.
 *
 * <p>It knows the kept keys only as values read at each collection, never the
 * leases themselves: the leases report to it, and it does not reach back.
 */
public final class HolderTelemetry {

    public static final AttributeKey<String> KEY = AttributeKey.stringKey("dagnats.lease.key");
    public static final AttributeKey<String> HOLDER = AttributeKey.stringKey("dagnats.lease.holder");
    public static final AttributeKey<Long> REVISION = AttributeKey.longKey("dagnats.lease.revision");
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("dagnats.lease.outcome");
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
    private static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    private static final AttributeKey<String> TEMPLATE = AttributeKey.stringKey("messaging.destination.template");
    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("messaging.operation.name");
    private static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");
    private static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    private static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    private static final AttributeKey<String> CHANGE = AttributeKey.stringKey("dagnats.holder.change");

    private static final TextMapGetter<Headers> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Headers carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Headers carrier, String key) {
            return carrier == null ? null : carrier.getFirst(key);
        }
    };

    private final Tracer tracer;
    private final TextMapPropagator propagator;
    private final DoubleHistogram renewSlack;
    private final LongCounter staleForwards;
    private final LongCounter ownershipChanges;
    private final Supplier<String> connectedUrl;
    /** The server attributes of the URL last connected to, parsed once per URL. */
    private volatile Map.Entry<String, Attributes> server = Map.entry("", Attributes.empty());

    /**
     * @param owners       every kept key, and whether this process acts as its owner right now;
     *                     read each time the owner gauge is collected
     * @param connectedUrl the URL of the NATS server the connection is on, or null while on none
     */
    public HolderTelemetry(OpenTelemetry openTelemetry, Supplier<Map<LeaseKey, Boolean>> owners, Supplier<String> connectedUrl) {
        this.connectedUrl = connectedUrl;
        tracer = openTelemetry.getTracer("io.dagnats.leases.holder");
        propagator = openTelemetry.getPropagators().getTextMapPropagator();
        Meter meter = openTelemetry.getMeter("io.dagnats.leases.holder");
        renewSlack = meter.histogramBuilder("dagnats.holder.renew.slack")
                .setDescription("Time left to the acting-as-owner deadline when a renew succeeded")
                .setUnit("s")
                .build();
        staleForwards = meter.counterBuilder("dagnats.holder.forwards.rejected")
                .setDescription("Forwarded requests rejected as stale (not owner, or a fence below the tenure)")
                .setUnit("{request}")
                .build();
        ownershipChanges = meter.counterBuilder("dagnats.holder.ownership.changes")
                .setDescription("Times this process started or stopped acting as owner of a key")
                .setUnit("{change}")
                .build();
        meter.gaugeBuilder("dagnats.holder.owner")
                .setDescription("1 while this process acts as owner of the key, else 0")
                .setUnit("1")
                .ofLongs()
                .buildWithCallback(measurement -> owners.get().forEach((key, owner) ->
                        measurement.record(owner ? 1 : 0, Attributes.of(KEY, key.value()))));
    }

    /**
     * A PRODUCER span for a call to {@code subject}, its context injected into {@code headers}: it
     * is the request's creation context, which makes a send a PRODUCER in the messaging conventions.
     */
    public Span startCall(String subject, String key, Headers headers) {
        Span span = tracer.spanBuilder("send " + subject)
                .setSpanKind(SpanKind.PRODUCER)
                .setAttribute(SYSTEM, "nats")
                .setAttribute(DESTINATION, subject)
                .setAttribute(OPERATION_TYPE, "send")
                .setAttribute(OPERATION, "send")
                .setAllAttributes(server())
                .setAttribute(KEY, key)
                .startSpan();
        propagator.inject(Context.current().with(span), headers, Headers::put);
        return span;
    }

    /**
     * A CONSUMER span for a forwarded request that arrived on {@code subject}, continuing the trace
     * that dagnats sent; named after the inbox template, as the subject holds the holder id and key.
     */
    public Span startServing(String subject, String key, Headers headers) {
        Context parent = headers == null ? Context.root() : propagator.extract(Context.root(), headers, HEADERS);
        return tracer.spanBuilder("process " + LeaseSubjects.INCARNATION_TEMPLATE)
                .setParent(parent)
                .setSpanKind(SpanKind.CONSUMER)
                .setAttribute(SYSTEM, "nats")
                .setAttribute(DESTINATION, subject)
                .setAttribute(TEMPLATE, LeaseSubjects.INCARNATION_TEMPLATE)
                .setAttribute(OPERATION_TYPE, "process")
                .setAttribute(OPERATION, "process")
                .setAllAttributes(server())
                .setAttribute(KEY, key)
                .startSpan();
    }

    private Attributes server() {
        String url = connectedUrl.get();
        Map.Entry<String, Attributes> last = server;
        if (url == null || url.equals(last.getKey())) {
            return url == null ? Attributes.empty() : last.getValue();
        }
        Attributes parsed;
        try {
            URI uri = URI.create(url);
            parsed = uri.getHost() == null || uri.getPort() < 0 ? Attributes.empty()
                    : Attributes.of(SERVER_ADDRESS, uri.getHost(), SERVER_PORT, (long) uri.getPort());
        } catch (IllegalArgumentException notAUri) {
            parsed = Attributes.empty();
        }
        server = Map.entry(url, parsed);
        return parsed;
    }

    public void renewed(String key, long slackNanos) {
        renewSlack.record(slackNanos / 1e9, Attributes.of(KEY, key));
    }

    public void rejectedStale(String key) {
        staleForwards.add(1, Attributes.of(KEY, key));
    }

    public void ownershipChanged(String key, boolean owner) {
        ownershipChanges.add(1, Attributes.of(KEY, key, CHANGE, owner ? "became_owner" : "stopped_owning"));
    }
}
