package io.dagnats.leases.adapters.otel;

import static io.dagnats.leases.adapters.otel.InMemoryTelemetry.put;
import static io.dagnats.leases.adapters.otel.InMemoryTelemetry.tombstone;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.application.LeaseCensus;
import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.RevokeReason;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The metrics: lease events counted once, by the instance that saw them; the census gauges; requests counted and timed. */
class LeaseMetricsTest {

    private final InMemoryTelemetry otel = new InMemoryTelemetry();
    private final InMemoryMetricReader metrics = otel.metrics;
    private final LeaseTelemetry telemetry = otel.telemetry;
    private final InMemoryTelemetry.WritingStore writingStore = otel.writingStore;

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
        // Named so Prometheus' linter accepts them: a gauge must not end in _count (issue 29).
        assertEquals(Map.of(), gauges());

        telemetry.census(new LeaseCensus.Count(5, 2));
        telemetry.census(new LeaseCensus.Count(4, 3));

        assertEquals(Map.of("dagnats.leases.held", 4L, "dagnats.lease.holders", 3L), gauges());
    }

    private Map<String, Long> gauges() {
        return metrics.collectAllMetrics().stream()
                .filter(metric -> metric.getType() == MetricDataType.LONG_GAUGE
                        && metric.getName().startsWith("dagnats.lease") && !metric.getName().endsWith(".supported")
                        && !metric.getLongGaugeData().getPoints().isEmpty())
                .collect(Collectors.toMap(MetricData::getName,
                        metric -> metric.getLongGaugeData().getPoints().iterator().next().getValue()));
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
}
