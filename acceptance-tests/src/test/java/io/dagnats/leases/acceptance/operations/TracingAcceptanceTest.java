package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.acceptance.harness.ZipkinServerProcess;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.protocol.Answers;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.zipkin.ZipkinSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One trace, read back from a real Zipkin: the caller's span is the root, the
 * dagnats forward span is under it, and the owner's handling span is under that;
 * names, kinds and attributes as the messaging conventions give them.
 */
class TracingAcceptanceTest {

    private static OpenTelemetrySdk sdk(String serviceName, String endpoint) {
        return OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .setResource(Resource.getDefault().merge(Resource.create(
                                Attributes.of(AttributeKey.stringKey("service.name"), serviceName))))
                        .addSpanProcessor(SimpleSpanProcessor.create(ZipkinSpanExporter.builder().setEndpoint(endpoint).build()))
                        .build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
    }

    @Test
    void aForwardIsOneTraceFromCallerThroughDagnatsToTheOwner() throws Exception {
        try (ZipkinServerProcess zipkin = ZipkinServerProcess.start();
                ServiceFixture service = ServiceFixture.with().environment(Map.of(
                        "OTEL_TRACES_EXPORTER", "zipkin",
                        "OTEL_EXPORTER_ZIPKIN_ENDPOINT", zipkin.spansEndpoint(),
                        "OTEL_BSP_SCHEDULE_DELAY", "100")).start();
                OpenTelemetrySdk ownerTelemetry = sdk("owner-service", zipkin.spansEndpoint());
                OpenTelemetrySdk callerTelemetry = sdk("caller-service", zipkin.spansEndpoint());
                Connection ownerConnection = Nats.connect(service.nats.url());
                Connection callerConnection = Nats.connect(service.nats.url());
                LeaseHolder owner = LeaseHolder.builder(ownerConnection).holderPrefix("owner")
                        .openTelemetry(ownerTelemetry)
                        .forwardHandler((tenure, payload) -> "pong".getBytes(StandardCharsets.UTF_8))
                        .build()) {
            KeptLease traced = owner.keep("traced", Duration.ofSeconds(15), OwnershipListener.NONE);
            // The owner's own word, not the server's: it acts as owner only once its confirming renew succeeded.
            Polling.until(Duration.ofSeconds(10), "the owner to own", traced::isOwner, isOwner -> isOwner);
            LeaseClient caller = new LeaseClient(callerConnection, Duration.ofSeconds(5), callerTelemetry);

            Span root = callerTelemetry.getTracer("test").spanBuilder("caller asks the owner").startSpan();
            Answers.Forward answer;
            try (Scope ignored = root.makeCurrent()) {
                // The forward goes straight to the owner this dagnats saw (ADR-032), so no read under it:
                // an owner query in the same trace carries the JetStream read.
                assertInstanceOf(Answers.Owner.Held.class, caller.owner(new LeaseKey("traced")).join());
                answer = caller.forward(new LeaseKey("traced"), "ping".getBytes(StandardCharsets.UTF_8),
                        Duration.ofSeconds(5)).join();
            } finally {
                root.end();
            }
            assertInstanceOf(Answers.Forward.Answered.class, answer);
            String traceId = root.getSpanContext().getTraceId();

            JsonNode spans = Polling.until(Duration.ofSeconds(30), "the whole trace in Zipkin",
                    () -> parse(zipkin.trace(traceId)), trace -> hasService(trace, "owner-service")
                            && hasService(trace, "dagnats") && hasService(trace, "caller-service")
                            && find(trace, "dagnats", "process api.leases.forward") != null
                            && find(trace, "owner-service", "process dagnats.lease.incarnation") != null
                            && find(trace, "caller-service", "send api.leases.forward") != null
                            && find(trace, "dagnats", "process api.leases.owner") != null);

            Map<String, JsonNode> byId = new HashMap<>();
            spans.forEach(span -> byId.put(span.path("id").asText(), span));
            JsonNode rootSpan = find(spans, "caller-service", "caller asks the owner");
            assertNotNull(rootSpan, spans.toPrettyString());
            assertFalse(rootSpan.has("parentId"), "the caller's span is the root");

            JsonNode forwardSpan = find(spans, "dagnats", "process api.leases.forward");
            assertTrue(isUnder(forwardSpan, rootSpan, byId), "the dagnats forward span is under the caller's");
            assertEquals("CONSUMER", forwardSpan.path("kind").asText(), forwardSpan.toPrettyString());
            JsonNode tags = forwardSpan.path("tags");
            assertEquals("nats", tags.path("messaging.system").asText(), forwardSpan.toPrettyString());
            assertEquals("process", tags.path("messaging.operation.type").asText());
            assertEquals("api.leases.forward", tags.path("messaging.destination.name").asText());
            assertEquals("traced", tags.path("dagnats.lease.key").asText());
            assertEquals(owner.id().value(), tags.path("dagnats.lease.holder").asText());
            assertFalse(tags.path("dagnats.lease.revision").asText().isEmpty());
            assertEquals("delivered", tags.path("dagnats.lease.outcome").asText());

            JsonNode callSpan = find(spans, "caller-service", "send api.leases.forward");
            assertEquals("PRODUCER", callSpan.path("kind").asText(), callSpan.toPrettyString());
            assertTrue(isUnder(forwardSpan, callSpan, byId), "the dagnats forward span is under the caller's send");

            // The owner's inbox subject holds its id, its incarnation and the key: the names hold the template.
            String inboxTemplate = "dagnats.lease.incarnation.{holder}.{incarnation}.{key}";
            JsonNode sendSpan = find(spans, "dagnats", "send " + inboxTemplate);
            assertNotNull(sendSpan, spans.toPrettyString());
            assertEquals("PRODUCER", sendSpan.path("kind").asText(), sendSpan.toPrettyString());
            assertTrue(isUnder(sendSpan, forwardSpan, byId));
            assertEquals(inboxTemplate, sendSpan.path("tags").path("messaging.destination.template").asText());
            assertEquals("dagnats.lease.incarnation." + owner.id().value() + "." + owner.incarnation().value() + ".traced",
                    sendSpan.path("tags").path("messaging.destination.name").asText());
            assertServer(sendSpan, service.nats);

            JsonNode ownerSpan = find(spans, "owner-service", "process " + inboxTemplate);
            assertNotNull(ownerSpan, spans.toPrettyString());
            assertEquals("CONSUMER", ownerSpan.path("kind").asText(), ownerSpan.toPrettyString());
            assertTrue(isUnder(ownerSpan, sendSpan, byId), "the owner's span is under the dagnats send span");
            assertEquals("traced", ownerSpan.path("tags").path("dagnats.lease.key").asText());
            assertEquals("served", ownerSpan.path("tags").path("dagnats.lease.outcome").asText());

            JsonNode read = find(spans, "dagnats", "get $KV.leases.{key}");
            assertNotNull(read, "the JetStream read is a child span: " + spans.toPrettyString());
            assertEquals("CLIENT", read.path("kind").asText());
            assertTrue(isUnder(read, find(spans, "dagnats", "process api.leases.owner"), byId));
            assertFalse(isUnder(read, forwardSpan, byId), "the forward was routed from memory, without a read");
            assertServer(read, service.nats);

            for (JsonNode span : spans) {
                String name = span.path("name").asText();
                assertFalse(name.contains(owner.id().value().toLowerCase(Locale.ROOT)) || name.contains("traced"),
                        "a holder id or key in a span name: " + name);
            }
        }
    }

    /** server.address and server.port name the NATS server the span's process is connected to. */
    private static void assertServer(JsonNode span, NatsServerProcess nats) {
        URI url = URI.create(nats.url());
        JsonNode tags = span.path("tags");
        assertEquals(url.getHost(), tags.path("server.address").asText(span.path("remoteEndpoint").path("ipv4").asText()),
                span.toPrettyString());
        assertEquals(Integer.toString(url.getPort()), tags.path("server.port").asText(
                span.path("remoteEndpoint").path("port").asText()), span.toPrettyString());
    }

    @Test
    void anExporterThatCannotReachItsBackendNeverFailsALeaseRequest() throws Exception {
        int nobodyListens = NatsServerProcess.freePort();
        try (ServiceFixture service = ServiceFixture.with().environment(Map.of(
                        "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + nobodyListens,
                        "OTEL_BSP_SCHEDULE_DELAY", "50",
                        "OTEL_METRIC_EXPORT_INTERVAL", "200")).start()) {
            WireClient client = service.client;
            long revision = client.acquire("untraced", "h", 15_000).path("revision").asLong();
            for (int i = 0; i < 200; i++) {
                JsonNode renewed = client.renew("untraced", "h", revision);
                assertFalse(renewed.has("kind"), renewed.toString());
                revision = renewed.path("revision").asLong();
            }
            assertEquals("h", client.owner("untraced").path("holder").asText());
        }
    }

    private static JsonNode parse(String body) {
        try {
            return body.isBlank() ? WireClient.JSON.createArrayNode() : WireClient.JSON.readTree(body);
        } catch (Exception notYet) {
            return WireClient.JSON.createArrayNode();
        }
    }

    private static boolean hasService(JsonNode spans, String service) {
        for (JsonNode span : spans) {
            if (service.equals(span.path("localEndpoint").path("serviceName").asText())) {
                return true;
            }
        }
        return false;
    }

    /** Zipkin lower-cases span names; match by prefix. */
    private static JsonNode find(JsonNode spans, String service, String namePrefix) {
        for (JsonNode span : spans) {
            if (service.equals(span.path("localEndpoint").path("serviceName").asText())
                    && span.path("name").asText().startsWith(namePrefix.toLowerCase(Locale.ROOT))) {
                return span;
            }
        }
        return null;
    }

    private static boolean isUnder(JsonNode span, JsonNode ancestor, Map<String, JsonNode> byId) {
        JsonNode current = span;
        for (int depth = 0; current != null && depth < 20; depth++) {
            String parent = current.path("parentId").asText();
            if (parent.equals(ancestor.path("id").asText())) {
                return true;
            }
            current = byId.get(parent);
        }
        return false;
    }
}
