package io.dagnats.leases.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StoreExpiryTest {

    private static final Instant STORED = Instant.parse("2026-12-01T12:00:00Z");
    private final StoreExpiry lease = new StoreExpiry(STORED, Duration.ofSeconds(10));

    @Test
    void aLeaseWithinItsTtlOnTheServersClockIsNotForgotten() {
        assertTrue(lease.forgottenFor(Optional.of(STORED.plusSeconds(9))).isEmpty());
    }

    @Test
    void aLeaseJustPastItsExpiryIsLeftToTheServersOwnExpiry() {
        assertTrue(lease.forgottenFor(Optional.of(STORED.plusSeconds(12))).isEmpty(), "exactly the margin");
    }

    @Test
    void aLeasePastItsExpiryByMoreThanTheMarginIsForgottenForThatLong() {
        assertEquals(Optional.of(Duration.ofMillis(2_001)), lease.forgottenFor(Optional.of(STORED.plusMillis(12_001))));
        assertEquals(Optional.of(Duration.ofMinutes(14)), lease.forgottenFor(Optional.of(STORED.plusSeconds(850))));
    }

    @Test
    void withoutTheServersClockNothingIsForgotten() {
        assertTrue(lease.forgottenFor(Optional.empty()).isEmpty());
    }

    @Test
    void theServersClockIsReadAsLateAsTheRoundTripAllowsAndNoLater() {
        ServerClockReading reading = new ServerClockReading(STORED, 1_000);

        assertEquals(Optional.of(STORED.plusMillis(500)), reading.serverTimeAtLeast(1_000 + 500_000_000L));
        assertEquals(Optional.of(STORED), reading.serverTimeAtLeast(1_000));
    }

    @Test
    void anOldReadingOfTheServersClockIsNotTrusted() {
        ServerClockReading reading = new ServerClockReading(STORED, 0);

        assertTrue(reading.serverTimeAtLeast(ServerClockReading.LONGEST_TRUSTED.toNanos()).isPresent());
        assertTrue(reading.serverTimeAtLeast(ServerClockReading.LONGEST_TRUSTED.toNanos() + 1).isEmpty());
        assertTrue(reading.serverTimeAtLeast(-1).isEmpty(), "a reading from the future");
    }

    /** This process's own clock takes no part: a lease is judged only against the server's. */
    @Test
    void aSkewedLocalClockCannotFreeALiveLease() {
        ServerClockReading reading = new ServerClockReading(STORED.plusSeconds(5), 0);
        // However far ahead this host's wall clock runs, the reading says the server is at +6 s.
        assertTrue(lease.forgottenFor(reading.serverTimeAtLeast(Duration.ofSeconds(1).toNanos())).isEmpty());
    }
}
