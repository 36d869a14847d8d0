package io.dagnats.leases.adapters.otel;

import static io.dagnats.leases.adapters.otel.InMemoryTelemetry.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A request's span and its children: the caller's trace continued, messaging names and attributes, outcomes. */
class RequestSpansTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER = "00f067aa0ba902b7";
    private final InMemoryTelemetry otel = new InMemoryTelemetry();
    private final InMemorySpanExporter spans = otel.spans;
    private final LeaseTelemetry telemetry = otel.telemetry;
    private final InMemoryTelemetry.WritingStore writingStore = otel.writingStore;
    private final LeaseStore slowStore = otel.slowStore;

    @Test
    void aRequestContinuesTheCallersTraceAndItsReadsAreChildrenEvenAcrossThreads() {
        LeaseStore store = telemetry.observe(slowStore);
        LeaseTelemetry.RequestRecord record = telemetry.startRequest("owner", "api.leases.owner",
                Map.of("traceparent", "00-" + TRACE_ID + "-" + CALLER + "-01"));

        record.within(() -> store.read(new LeaseKey("k"))
                        .thenCompose(first -> store.read(new LeaseKey("k"))))
                .toCompletableFuture().join();
        record.end(new LeaseTelemetry.Facts.Free(new LeaseKey("k")));

        List<SpanData> finished = spans.getFinishedSpanItems();
        SpanData request = finished.stream().filter(span -> span.getKind() == SpanKind.CONSUMER).findFirst().orElseThrow();
        assertEquals(TRACE_ID, request.getTraceId());
        assertEquals(CALLER, request.getParentSpanId());
        assertEquals("process api.leases.owner", request.getName());
        assertEquals("nats", request.getAttributes().get(LeaseAttributes.MESSAGING_SYSTEM));
        assertEquals("free", request.getAttributes().get(LeaseAttributes.LEASE_OUTCOME));
        List<SpanData> reads = finished.stream().filter(span -> span.getKind() == SpanKind.CLIENT).toList();
        assertEquals(2, reads.size());
        reads.forEach(read -> assertEquals(request.getSpanId(), read.getParentSpanId(), read.getName()));
    }

    @Test
    void spanNamesAreLowInCardinalityAndFollowTheMessagingConventions() {
        LeaseStore store = telemetry.observe(writingStore);
        LeaseTelemetry.RequestRecord record = telemetry.startRequest("renew", "api.leases.renew", Map.of());
        record.within(() -> store.read(new LeaseKey("k-1"))
                .thenCompose(read -> store.write(put("k-1", LeaseEvent.RENEWED, 0)))).toCompletableFuture().join();
        record.end(LeaseTelemetry.Facts.Failed.bare(ErrorKind.INVALID));
        telemetry.observe((key, owner, fence, payload, timeout) -> CompletableFuture.completedFuture(
                (OwnerInbox.Delivery) new OwnerInbox.Delivery.NoResponders()))
                .deliver(new LeaseKey("k-1"), Claimant.of(new HolderId("h-1")), new Fence(3), new byte[0], Duration.ofSeconds(1))
                .toCompletableFuture().join();

        Map<String, SpanData> byName = spans.getFinishedSpanItems().stream()
                .collect(Collectors.toMap(SpanData::getName, span -> span));
        assertEquals(Set.of("process api.leases.renew", "get $KV.leases.{key}", "publish $KV.leases.{key}",
                "send dagnats.lease.inbox.{holder}.{key}"), byName.keySet());
        assertSpan(byName.get("process api.leases.renew"), SpanKind.CONSUMER, "process", "process",
                "api.leases.renew", null);
        assertEquals("dagnats-leases", byName.get("process api.leases.renew").getAttributes()
                .get(AttributeKey.stringKey("messaging.consumer.group.name")));
        assertSpan(byName.get("get $KV.leases.{key}"), SpanKind.CLIENT, "receive", "get",
                "$KV.leases.k-1", "$KV.leases.{key}");
        assertSpan(byName.get("publish $KV.leases.{key}"), SpanKind.CLIENT, "send", "publish",
                "$KV.leases.k-1", "$KV.leases.{key}");
        // Its context travels in the owner request (the message's creation context): a PRODUCER.
        assertSpan(byName.get("send dagnats.lease.inbox.{holder}.{key}"), SpanKind.PRODUCER, "send", "send",
                "dagnats.lease.inbox.h-1.k-1", "dagnats.lease.inbox.{holder}.{key}");
    }

    private static void assertSpan(SpanData span, SpanKind kind, String type, String operation, String destination,
            String template) {
        Attributes attributes = span.getAttributes();
        assertEquals(kind, span.getKind(), span.getName());
        assertEquals("nats", attributes.get(AttributeKey.stringKey("messaging.system")), span.getName());
        assertEquals(type, attributes.get(AttributeKey.stringKey("messaging.operation.type")), span.getName());
        assertEquals(operation, attributes.get(AttributeKey.stringKey("messaging.operation.name")), span.getName());
        assertEquals(destination, attributes.get(AttributeKey.stringKey("messaging.destination.name")), span.getName());
        assertEquals(template, attributes.get(AttributeKey.stringKey("messaging.destination.template")), span.getName());
        assertEquals("10.0.0.7", attributes.get(AttributeKey.stringKey("server.address")), span.getName());
        assertEquals(4333L, attributes.get(AttributeKey.longKey("server.port")), span.getName());
    }

    @Test
    void badInputIsAnOutcomeNotAnException() {
        telemetry.startRequest("acquire", "api.leases.acquire", Map.of())
                .end(LeaseTelemetry.Facts.Failed.bare(ErrorKind.INVALID));

        SpanData request = spans.getFinishedSpanItems().get(0);
        assertEquals("invalid", request.getAttributes().get(LeaseAttributes.ERROR_TYPE));
        assertEquals(StatusCode.UNSET, request.getStatus().getStatusCode());
        assertTrue(request.getEvents().isEmpty(), "no exception event for bad input");
    }

    @Test
    void outgoingHeadersCarryTheCurrentContext() {
        LeaseTelemetry.RequestRecord record = telemetry.startRequest("forward", "api.leases.forward", Map.of());

        Map<String, String> headers = record.within(telemetry::outgoingHeaders);

        assertTrue(headers.get("traceparent").startsWith("00-"), headers.toString());
    }

    @Test
    void aFailedRequestNamesItsKindAndTheLeaseLastTried() {
        Lease lastTried = new Lease(new LeaseKey("k"), new HolderId("h"), new Fence(9), new Fence(9),
                Instant.EPOCH, Instant.EPOCH, new LeaseTtl(10_000));
        telemetry.startRequest("forward", "api.leases.forward", Map.of())
                .end(new LeaseTelemetry.Facts.Failed(ErrorKind.OWNER_TIMEOUT, Optional.of(lastTried.key()),
                        Optional.of(lastTried)));

        SpanData request = spans.getFinishedSpanItems().get(0);
        assertEquals("owner_timeout", request.getAttributes().get(LeaseAttributes.LEASE_OUTCOME));
        assertEquals("owner_timeout", request.getAttributes().get(LeaseAttributes.ERROR_TYPE));
        assertEquals("k", request.getAttributes().get(LeaseAttributes.LEASE_KEY));
        assertEquals("h", request.getAttributes().get(LeaseAttributes.LEASE_HOLDER));
        assertEquals(9L, request.getAttributes().get(LeaseAttributes.LEASE_REVISION));
        assertEquals(StatusCode.UNSET, request.getStatus().getStatusCode());
    }

    @Test
    void serverFaultsMarkTheSpanAsAnError() {
        telemetry.startRequest("acquire", "api.leases.acquire", Map.of())
                .end(LeaseTelemetry.Facts.Failed.bare(ErrorKind.UNAVAILABLE));

        assertEquals(StatusCode.ERROR, spans.getFinishedSpanItems().get(0).getStatus().getStatusCode());
    }
}
