package io.dagnats.leases.holder.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nats.client.impl.Headers;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The holder library's spans: low-cardinality names, kinds and attributes as the messaging conventions have them. */
class HolderTelemetryTest {

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    private final HolderTelemetry telemetry = new HolderTelemetry(sdk, Map::of, () -> "nats://127.0.0.1:4223");

    @Test
    void aCallIsAProducerSpanWhoseContextTravelsInTheRequest() {
        Headers headers = new Headers();
        telemetry.startCall("api.leases.renew", "k-1", headers).end();

        SpanData call = spans.getFinishedSpanItems().get(0);
        assertEquals("send api.leases.renew", call.getName());
        assertEquals(SpanKind.PRODUCER, call.getKind());
        assertMessaging(call.getAttributes(), "send", "api.leases.renew");
        assertNull(call.getAttributes().get(AttributeKey.stringKey("messaging.destination.template")));
        assertEquals("127.0.0.1", call.getAttributes().get(AttributeKey.stringKey("server.address")));
        assertEquals(4223L, call.getAttributes().get(AttributeKey.longKey("server.port")));
        assertTrue(headers.getFirst("traceparent").contains(call.getSpanId()), headers.toString());
    }

    @Test
    void servingAForwardIsAConsumerSpanNamedWithoutHolderOrKey() {
        Headers headers = new Headers();
        headers.put("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        telemetry.startServing("dagnats.lease.incarnation.owner-7f3a.run-1.k-1", "k-1", headers).end();

        SpanData served = spans.getFinishedSpanItems().get(0);
        assertEquals("process dagnats.lease.incarnation.{holder}.{incarnation}.{key}", served.getName());
        assertEquals(SpanKind.CONSUMER, served.getKind());
        assertEquals("00f067aa0ba902b7", served.getParentSpanId());
        assertMessaging(served.getAttributes(), "process", "dagnats.lease.incarnation.owner-7f3a.run-1.k-1");
        assertEquals("dagnats.lease.incarnation.{holder}.{incarnation}.{key}",
                served.getAttributes().get(AttributeKey.stringKey("messaging.destination.template")));
        assertEquals("k-1", served.getAttributes().get(AttributeKey.stringKey("dagnats.lease.key")));
    }

    private static void assertMessaging(Attributes attributes, String operation, String destination) {
        assertEquals("nats", attributes.get(AttributeKey.stringKey("messaging.system")));
        assertEquals(operation, attributes.get(AttributeKey.stringKey("messaging.operation.type")));
        assertEquals(operation, attributes.get(AttributeKey.stringKey("messaging.operation.name")));
        assertEquals(destination, attributes.get(AttributeKey.stringKey("messaging.destination.name")));
    }
}
