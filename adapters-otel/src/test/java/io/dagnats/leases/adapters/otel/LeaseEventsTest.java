package io.dagnats.leases.adapters.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the expiry count remembers stays bounded, and a lost marker does not keep a place forever. */
class LeaseEventsTest {

    private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
    private final LeaseEvents events = new LeaseEvents(
            SdkMeterProvider.builder().registerMetricReader(metrics).build().get("test"), true, 2);

    @Test
    void whenFullLeasesLongPastTheirExpiryAreForgottenToMakeRoom() {
        events.written(put("lost-marker-1", Instant.EPOCH), new Fence(1));
        events.written(put("lost-marker-2", Instant.EPOCH), new Fence(2));
        events.written(put("fresh", Instant.now()), new Fence(3));

        events.expired(new LeaseKey("fresh"), new Fence(3));

        assertEquals(1, expired());
    }

    @Test
    void whenFullOfLeasesStillLiveAFurtherLeaseIsNotRememberedAndItsExpiryNotCounted() {
        events.written(put("live-1", Instant.now()), new Fence(1));
        events.written(put("live-2", Instant.now()), new Fence(2));
        events.written(put("one-too-many", Instant.now()), new Fence(3));

        events.expired(new LeaseKey("one-too-many"), new Fence(3));
        events.expired(new LeaseKey("live-1"), new Fence(1));

        assertEquals(1, expired());
    }

    private static LeaseWrite.Put put(String key, Instant writtenAt) {
        return new LeaseWrite.Put(new LeaseKey(key), 0, LeaseEvent.ACQUIRED, Claimant.of(new HolderId("h")), writtenAt, writtenAt,
                new LeaseTtl(10_000), Optional.empty());
    }

    private long expired() {
        return metrics.collectAllMetrics().stream()
                .flatMap(metric -> metric.getLongSumData().getPoints().stream())
                .filter(point -> "expired".equals(point.getAttributes().get(AttributeKey.stringKey("dagnats.lease.event"))))
                .mapToLong(LongPointData::getValue)
                .sum();
    }
}
