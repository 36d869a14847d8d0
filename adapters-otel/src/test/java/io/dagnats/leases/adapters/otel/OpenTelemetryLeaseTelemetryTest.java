package io.dagnats.leases.adapters.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.application.LeaseCensus;
import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.RevokeReason;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import java.time.Duration;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseTtl;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class OpenTelemetryLeaseTelemetryTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER = "00f067aa0ba902b7";

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    private final LeaseTelemetry telemetry =
            new OpenTelemetryLeaseTelemetry(sdk, () -> "nats://10.0.0.7:4333", true);

    /** Accepts every write, at the next revision; the test sets which revision that is. */
    private final WritingStore writingStore = new WritingStore();

    private static final class WritingStore implements LeaseStore {
        long nextRevision = 1;

        @Override
        public CompletionStage<KeyState> read(LeaseKey key) {
            return CompletableFuture.completedFuture(new KeyState.Free(key, 0));
        }

        @Override
        public CompletionStage<WriteOutcome> write(LeaseWrite write) {
            return CompletableFuture.completedFuture(new WriteOutcome.Written(new Fence(nextRevision++)));
        }

        @Override
        public Identity identity() {
            return Identity.NONE;
        }

        @Override
        public void contradicted(String evidence) {
        }

        @Override
        public void revisionsRepeat(String evidence) {
        }
    }

    /** Completes reads later, on another thread, as the NATS client does. */
    private final LeaseStore slowStore = new LeaseStore() {
        @Override
        public CompletionStage<KeyState> read(LeaseKey key) {
            return CompletableFuture.supplyAsync(() -> new KeyState.Free(key, 0));
        }

        @Override
        public CompletionStage<WriteOutcome> write(LeaseWrite write) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Identity identity() {
            return Identity.NONE;
        }

        @Override
        public void contradicted(String evidence) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void revisionsRepeat(String evidence) {
            throw new UnsupportedOperationException();
        }
    };

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
        assertEquals("nats", request.getAttributes().get(OpenTelemetryLeaseTelemetry.MESSAGING_SYSTEM));
        assertEquals("free", request.getAttributes().get(OpenTelemetryLeaseTelemetry.LEASE_OUTCOME));
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
    void acceptedWritesAndLostAnswersAreCountedAsLeaseEvents() {
        LeaseStore store = telemetry.observe(writingStore);
        store.write(put("k", LeaseEvent.ACQUIRED, 0)).toCompletableFuture().join();
        store.write(put("k", LeaseEvent.RENEWED, 1)).toCompletableFuture().join();
        store.write(put("k", LeaseEvent.RENEWED, 2)).toCompletableFuture().join();
        store.write(tombstone("k", 3, Optional.empty())).toCompletableFuture().join();
        store.write(put("k", LeaseEvent.ACQUIRED, 4)).toCompletableFuture().join();
        store.write(tombstone("k", 5, Optional.of(new RevokeReason("stuck")))).toCompletableFuture().join();
        telemetry.startRequest("renew", "api.leases.renew", Map.of())
                .end(new LeaseTelemetry.Facts.Failed(ErrorKind.LOST, Optional.of(new LeaseKey("k")), Optional.empty()));

        assertEquals(Map.of("acquired", 2L, "renewed", 2L, "released", 1L, "revoked", 1L, "lost", 1L), leaseEvents());
    }

    @Test
    void anExpiryIsCountedOnceByTheInstanceThatWroteTheLease() {
        LeaseStore store = telemetry.observe(writingStore);
        writingStore.nextRevision = 40;
        store.write(put("mine", LeaseEvent.ACQUIRED, 0)).toCompletableFuture().join();

        telemetry.expired(new LeaseKey("mine"), new Fence(40));
        telemetry.expired(new LeaseKey("mine"), new Fence(40));

        assertEquals(Map.of("acquired", 1L, "expired", 1L), leaseEvents());
    }

    @Test
    void neitherATombstonesExpiryNorAnotherInstancesLeaseCountsAsAnExpiry() {
        LeaseStore store = telemetry.observe(writingStore);
        writingStore.nextRevision = 40;
        store.write(put("released", LeaseEvent.ACQUIRED, 0)).toCompletableFuture().join();
        store.write(tombstone("released", 40, Optional.empty())).toCompletableFuture().join();
        store.write(put("taken-over", LeaseEvent.ACQUIRED, 0)).toCompletableFuture().join();

        telemetry.expired(new LeaseKey("released"), new Fence(41));
        // Another instance renewed it at 50, and that lease expired: not this instance's to count...
        telemetry.expired(new LeaseKey("taken-over"), new Fence(50));
        // ...and this instance's older lease is forgotten, not counted later.
        telemetry.expired(new LeaseKey("taken-over"), new Fence(42));
        telemetry.expired(new LeaseKey("never-written-here"), new Fence(60));

        assertEquals(Map.of("acquired", 2L, "released", 1L), leaseEvents());
    }

    @Test
    void theGaugesReportTheLatestCensusAndNothingBeforeTheFirst() {
        assertEquals(Map.of(), gauges());

        telemetry.census(new LeaseCensus.Count(5, 2));
        telemetry.census(new LeaseCensus.Count(4, 3));

        assertEquals(Map.of("dagnats.lease.count", 4L, "dagnats.lease.owner.count", 3L), gauges());
    }

    private Map<String, Long> gauges() {
        return metrics.collectAllMetrics().stream()
                .filter(metric -> metric.getName().endsWith(".count") && !metric.getLongGaugeData().getPoints().isEmpty())
                .collect(Collectors.toMap(MetricData::getName,
                        metric -> metric.getLongGaugeData().getPoints().iterator().next().getValue()));
    }

    private static LeaseWrite.Put put(String key, LeaseEvent event, long expectedSequence) {
        return new LeaseWrite.Put(new LeaseKey(key), expectedSequence, event, Claimant.of(new HolderId("h")), Instant.EPOCH,
                Instant.EPOCH, new LeaseTtl(10_000), Optional.empty());
    }

    /** A release (or, with a reason, a revoke) of the lease {@code key} has at {@code revision}. */
    private static LeaseWrite.Tombstone tombstone(String key, long revision, Optional<RevokeReason> revoked) {
        return new LeaseWrite.Tombstone(new Lease(new LeaseKey(key), new HolderId("h"), new Fence(revision),
                new Fence(revision), Instant.EPOCH, Instant.EPOCH, new LeaseTtl(10_000)), revoked);
    }

    /** The dagnats.lease.events counter, by event. */
    private Map<String, Long> leaseEvents() {
        return metrics.collectAllMetrics().stream()
                .filter(metric -> metric.getName().equals("dagnats.lease.events"))
                .flatMap(metric -> metric.getLongSumData().getPoints().stream())
                .collect(Collectors.toMap(point -> point.getAttributes().get(AttributeKey.stringKey("dagnats.lease.event")),
                        LongPointData::getValue));
    }

    @Test
    void badInputIsAnOutcomeNotAnException() {
        telemetry.startRequest("acquire", "api.leases.acquire", Map.of())
                .end(LeaseTelemetry.Facts.Failed.bare(ErrorKind.INVALID));

        SpanData request = spans.getFinishedSpanItems().get(0);
        assertEquals("invalid", request.getAttributes().get(OpenTelemetryLeaseTelemetry.ERROR_TYPE));
        assertEquals(StatusCode.UNSET, request.getStatus().getStatusCode());
        assertTrue(request.getEvents().isEmpty(), "no exception event for bad input");
    }

    @Test
    void requestsAreCountedByOperationAndOutcomeAndTimed() {
        telemetry.startRequest("acquire", "api.leases.acquire", Map.of())
                .end(new LeaseTelemetry.Facts.Answered(LeaseTelemetry.Facts.Result.GRANTED, new LeaseKey("k"),
                        new HolderId("h"), new Fence(7)));
        telemetry.leasesSupported(true);

        Set<String> names = metrics.collectAllMetrics().stream().map(MetricData::getName).collect(Collectors.toSet());
        assertTrue(names.containsAll(Set.of("dagnats.lease.requests", "dagnats.lease.request.duration",
                "dagnats.lease.supported")), names.toString());
    }

    @Test
    void theRequestDurationHistogramHasLatencyBoundariesFrom50MicrosecondsTo10Seconds() {
        telemetry.startRequest("renew", "api.leases.renew", Map.of())
                .end(new LeaseTelemetry.Facts.Answered(LeaseTelemetry.Facts.Result.RENEWED, new LeaseKey("k"),
                        new HolderId("h"), new Fence(8)));

        MetricData duration = metrics.collectAllMetrics().stream()
                .filter(metric -> metric.getName().equals("dagnats.lease.request.duration")).findFirst().orElseThrow();
        HistogramPointData point = duration.getHistogramData().getPoints().iterator().next();
        assertEquals(List.of(0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1,
                0.25, 0.5, 1.0, 2.5, 5.0, 10.0), point.getBoundaries());
        assertEquals(1, point.getCount());
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
        assertEquals("owner_timeout", request.getAttributes().get(OpenTelemetryLeaseTelemetry.LEASE_OUTCOME));
        assertEquals("owner_timeout", request.getAttributes().get(OpenTelemetryLeaseTelemetry.ERROR_TYPE));
        assertEquals("k", request.getAttributes().get(OpenTelemetryLeaseTelemetry.LEASE_KEY));
        assertEquals("h", request.getAttributes().get(OpenTelemetryLeaseTelemetry.LEASE_HOLDER));
        assertEquals(9L, request.getAttributes().get(OpenTelemetryLeaseTelemetry.LEASE_REVISION));
        assertEquals(StatusCode.UNSET, request.getStatus().getStatusCode());
    }

    @Test
    void serverFaultsMarkTheSpanAsAnError() {
        telemetry.startRequest("acquire", "api.leases.acquire", Map.of())
                .end(LeaseTelemetry.Facts.Failed.bare(ErrorKind.UNAVAILABLE));

        assertEquals(StatusCode.ERROR, spans.getFinishedSpanItems().get(0).getStatus().getStatusCode());
    }

    @Test
    void aTelemetryFaultIsLoggedOnceAndNeverReachesTheRequest() {
        List<String> logged = new CopyOnWriteArrayList<>();
        Tracer broken = new Tracer() {
            @Override
            public SpanBuilder spanBuilder(String spanName) {
                throw new IllegalStateException("exporter gone");
            }
        };
        OpenTelemetry faulty = new OpenTelemetry() {
            @Override
            public TracerProvider getTracerProvider() {
                return new TracerProvider() {
                    @Override
                    public Tracer get(String instrumentationScopeName) {
                        return broken;
                    }

                    @Override
                    public Tracer get(String instrumentationScopeName, String instrumentationScopeVersion) {
                        return broken;
                    }
                };
            }

            @Override
            public ContextPropagators getPropagators() {
                return sdk.getPropagators();
            }
        };
        LeaseTelemetry telemetry = new OpenTelemetryLeaseTelemetry(faulty, () -> null, true,
                new TelemetryFaults((where, fault) -> logged.add(where + ": " + fault.getMessage())));
        LeaseStore store = telemetry.observe(slowStore);

        for (int i = 0; i < 3; i++) {
            LeaseTelemetry.RequestRecord record = telemetry.startRequest("owner", "api.leases.owner", Map.of());
            KeyState state = record.within(() -> store.read(new LeaseKey("k"))).toCompletableFuture().join();
            record.end(new LeaseTelemetry.Facts.Free(state.key()));
        }

        assertEquals(List.of("starting a request span: exporter gone",
                "starting the span of a JetStream read: exporter gone"), logged);
    }
}
