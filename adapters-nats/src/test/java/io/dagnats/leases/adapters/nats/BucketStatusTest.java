package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The grace rule: a replacement bucket grants no free key until its grace ends, then as usual. */
class BucketStatusTest {

    private static final Instant CREATED = Instant.parse("2026-11-30T13:00:00Z");
    private static final BucketIdentity IDENTITY = BucketIdentity.of(CREATED, 5, Map.of());

    private static Clock at(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    @Test
    void noFreeKeyIsGrantedBeforeTheGraceEndsAndEveryKeyIsAfter() {
        Instant grantsFrom = BucketHistory.graceEnd(CREATED);
        BucketStatus.Ready ready = new BucketStatus.Ready("settings", IDENTITY, Optional.of(grantsFrom));

        Optional<String> early = ready.grantsWithheld(at(CREATED.plusSeconds(5)).instant());
        assertTrue(early.isPresent());
        assertTrue(early.get().contains("until " + grantsFrom), early.get());
        assertTrue(ready.grantsWithheld(at(grantsFrom.minusMillis(1)).instant()).isPresent());
        assertEquals(Optional.empty(), ready.grantsWithheld(at(grantsFrom).instant()));
        assertEquals(Optional.empty(), ready.grantsWithheld(at(grantsFrom.plus(Duration.ofDays(1))).instant()));
        assertTrue(ready.describe().contains("no free key is granted until " + grantsFrom), ready.describe());
    }

    @Test
    void aBucketWithoutAGracePeriodGrantsAtOnce() {
        BucketStatus.Ready ready = new BucketStatus.Ready("settings", IDENTITY, Optional.empty());

        assertEquals(Optional.empty(), ready.grantsWithheld(CREATED));
    }
}
