package io.dagnats.leases.adapters.otel;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;

/**
 * A span as the OpenTelemetry messaging conventions shape it: named
 * {@code {operation name} {destination}}, where the destination is its template
 * when the name itself holds a holder id or a key, so no span name does.
 */
final class MessagingSpan {

    static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> TEMPLATE = AttributeKey.stringKey("messaging.destination.template");
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("messaging.operation.name");
    static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");

    private MessagingSpan() {
    }

    /**
     * @param type        {@code send}, {@code receive} or {@code process}
     * @param operation   what NATS or JetStream calls it ({@code publish}, {@code get}, ...)
     * @param destination the subject, which may hold a key or holder id
     * @param template    the subject with those named ({@code ...{key}}), or null when it holds none
     */
    static SpanBuilder builder(Tracer tracer, SpanKind kind, String type, String operation, String destination,
            String template, ServerAddress server) {
        SpanBuilder builder = tracer.spanBuilder(operation + " " + (template == null ? destination : template))
                .setSpanKind(kind)
                .setAttribute(SYSTEM, "nats")
                .setAttribute(OPERATION_TYPE, type)
                .setAttribute(OPERATION_NAME, operation)
                .setAttribute(DESTINATION, destination)
                .setAllAttributes(server.attributes());
        if (template != null) {
            builder.setAttribute(TEMPLATE, template);
        }
        return builder;
    }
}
