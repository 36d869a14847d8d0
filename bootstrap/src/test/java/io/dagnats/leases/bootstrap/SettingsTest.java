package io.dagnats.leases.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SettingsTest {

    @Test
    void defaultsServeALocalServer() {
        Settings settings = Settings.fromEnvironment(Map.of("PATH", "/usr/bin", "NATS_CONTEXT", "ignored"));

        assertEquals("nats://127.0.0.1:4222", settings.natsUrl());
        assertEquals(1, settings.leaseReplicas());
        assertEquals(Duration.ofSeconds(60), settings.markerTtl());
        assertEquals(Duration.ofSeconds(2), settings.jetStreamTimeout());
        assertEquals(Optional.empty(), settings.user());
    }

    @Test
    void aMisspeltDagnatsSettingStopsTheStartAndIsNamed() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of("DAGNATS_LEASE_REPLICA", "3")));

        assertTrue(failure.getMessage().contains("DAGNATS_LEASE_REPLICA"), failure.getMessage());
        assertTrue(failure.getMessage().contains("DAGNATS_LEASE_REPLICAS"), failure.getMessage());
    }

    @Test
    void numbersAreCheckedAgainstTheirRange() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of("DAGNATS_LEASE_REPLICAS", "7")));
        assertTrue(failure.getMessage().startsWith("DAGNATS_LEASE_REPLICAS must be from 1 to 5"), failure.getMessage());

        IllegalArgumentException notNumber = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of("DAGNATS_JETSTREAM_TIMEOUT_MS", "2s")));
        assertTrue(notNumber.getMessage().contains("whole number"), notNumber.getMessage());
    }

    @Test
    void userAndPasswordGoTogetherAndOnlyOneWayToAuthenticate() {
        assertThrows(IllegalArgumentException.class, () -> Settings.fromEnvironment(Map.of("NATS_USER", "u")));
        assertThrows(IllegalArgumentException.class, () -> Settings.fromEnvironment(
                Map.of("NATS_USER", "u", "NATS_PASSWORD", "p", "NATS_TOKEN", "t")));
        assertEquals(Optional.of("u"), Settings.fromEnvironment(Map.of("NATS_USER", "u", "NATS_PASSWORD", "p")).user());
    }

    @Test
    void aFileSettingMustNameAReadableFile() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of("NATS_CREDS", "/no/such/file.creds")));
        assertTrue(failure.getMessage().startsWith("NATS_CREDS names /no/such/file.creds"), failure.getMessage());
    }
}
