package io.dagnats.leases.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SettingsTest {

    @Test
    void defaultsServeALocalServer() {
        Settings settings = Settings.fromEnvironment(Map.of("PATH", "/usr/bin", "NATS_CONTEXT", "ignored"));

        assertEquals("nats://127.0.0.1:4222", settings.connection().natsUrl());
        assertEquals(1, settings.bucket().replicas());
        assertEquals(Duration.ofSeconds(60), settings.bucket().markerTtl());
        assertEquals(Duration.ofSeconds(2), settings.service().jetStreamTimeout());
        assertEquals(Optional.empty(), settings.connection().user());
    }

    @Test
    void aMisspeltDagnatsSettingStopsTheStartAndIsNamed() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of("DAGNATS_LEASE_REPLICA", "3")));

        assertTrue(failure.getMessage().contains("DAGNATS_LEASE_REPLICA"), failure.getMessage());
        assertTrue(failure.getMessage().contains("DAGNATS_LEASE_REPLICAS"), failure.getMessage());
    }

    @Test
    void aMisspeltDagnatsSettingGetsTheNearestNameAsTheCliDoesForCommands() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of("DAGNATS_DRAIN_TIMEOUT", "5000")));

        assertTrue(failure.getMessage().startsWith(
                "unknown setting DAGNATS_DRAIN_TIMEOUT; did you mean DAGNATS_DRAIN_TIMEOUT_MS?"), failure.getMessage());
    }

    @Test
    void aDagnatsNameLikeNoSettingGetsNoGuess() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of("DAGNATS_XYZZY", "1")));

        assertFalse(failure.getMessage().contains("did you mean"), failure.getMessage());
        assertTrue(failure.getMessage().contains("dagnats knows DAGNATS_"), failure.getMessage());
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
        assertEquals(Optional.of("u"), Settings.fromEnvironment(Map.of("NATS_USER", "u", "NATS_PASSWORD", "p")).connection().user());
    }

    @Test
    void aFileSettingMustNameAReadableFile() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of("NATS_CREDS", "/no/such/file.creds")));
        assertTrue(failure.getMessage().startsWith("NATS_CREDS names /no/such/file.creds"), failure.getMessage());
    }

    @Test
    void eachConcernReadsItsOwnSettings(@TempDir Path directory) throws IOException {
        Path ca = Files.writeString(directory.resolve("ca.pem"), "ca");
        Settings settings = Settings.fromEnvironment(Map.of(
                "NATS_URL", " tls://nats.example:4222 ",
                "NATS_TOKEN", "secret",
                "NATS_CA", ca.toString(),
                "DAGNATS_LEASE_REPLICAS", "3",
                "DAGNATS_MARKER_TTL_SECONDS", "120",
                "DAGNATS_JETSTREAM_TIMEOUT_MS", "500",
                "DAGNATS_DRAIN_TIMEOUT_MS", "0",
                "OTEL_SERVICE_NAME", "leases",
                "OTEL_TRACES_EXPORTER", " "));

        assertEquals("tls://nats.example:4222", settings.connection().natsUrl());
        assertEquals(Optional.of("secret"), settings.connection().token());
        assertEquals(new TlsSettings(Optional.of(ca), Optional.empty(), Optional.empty()), settings.tls());
        assertTrue(settings.tls().configured());
        assertEquals(3, settings.bucket().replicas());
        assertEquals(Duration.ofSeconds(120), settings.bucket().markerTtl());
        assertEquals(new ServiceSettings(Duration.ofMillis(500), Duration.ZERO), settings.service());
        assertEquals(Map.of("OTEL_SERVICE_NAME", "leases"), settings.telemetry().otelVariables());
    }

    @Test
    void defaultsLeaveTlsAndTelemetryOffAndDrainForTenSeconds() {
        Settings settings = Settings.forUrl("nats://elsewhere:4222");

        assertEquals("nats://elsewhere:4222", settings.connection().natsUrl());
        assertFalse(settings.tls().configured());
        assertEquals(Map.of(), settings.telemetry().otelVariables());
        assertEquals(Duration.ofSeconds(10), settings.service().drainTimeout());
        assertEquals("no authentication", settings.describeAuthentication());
    }

    @Test
    void forUrlWithOtelVariablesHandsThemToTelemetry() {
        Settings settings = Settings.forUrl("nats://elsewhere:4222", Map.of("OTEL_TRACES_EXPORTER", "otlp"));

        assertEquals("nats://elsewhere:4222", settings.connection().natsUrl());
        assertEquals(Map.of("OTEL_TRACES_EXPORTER", "otlp"), settings.telemetry().otelVariables());
    }

    static Stream<Arguments> wrongNumbers() {
        return Stream.of(
                Arguments.of("DAGNATS_LEASE_REPLICAS", "0", "DAGNATS_LEASE_REPLICAS must be from 1 to 5, not 0"),
                Arguments.of("DAGNATS_MARKER_TTL_SECONDS", "0", "DAGNATS_MARKER_TTL_SECONDS must be from 1 to 86400, not 0"),
                Arguments.of("DAGNATS_MARKER_TTL_SECONDS", "1m", "DAGNATS_MARKER_TTL_SECONDS must be a whole number, not \"1m\""),
                Arguments.of("DAGNATS_JETSTREAM_TIMEOUT_MS", "99", "DAGNATS_JETSTREAM_TIMEOUT_MS must be from 100 to 60000, not 99"),
                Arguments.of("DAGNATS_JETSTREAM_TIMEOUT_MS", "60001", "DAGNATS_JETSTREAM_TIMEOUT_MS must be from 100 to 60000, not 60001"),
                Arguments.of("DAGNATS_DRAIN_TIMEOUT_MS", "-1", "DAGNATS_DRAIN_TIMEOUT_MS must be from 0 to 600000, not -1"),
                Arguments.of("DAGNATS_DRAIN_TIMEOUT_MS", "ten", "DAGNATS_DRAIN_TIMEOUT_MS must be a whole number, not \"ten\""));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("wrongNumbers")
    void aWrongNumberIsNamedWithItsRange(String name, String value, String sentence) {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of(name, value)));

        assertEquals(sentence, failure.getMessage());
    }

    @Test
    void aBlankSettingCountsAsUnset() {
        Settings settings = Settings.fromEnvironment(Map.of("NATS_URL", " ", "DAGNATS_LEASE_REPLICAS", "", "NATS_CREDS", ""));

        assertEquals(ConnectionSettings.DEFAULT_NATS_URL, settings.connection().natsUrl());
        assertEquals(1, settings.bucket().replicas());
        assertEquals(Optional.empty(), settings.connection().credsFile());
    }

    @Test
    void aClientCertificateNeedsItsKey(@TempDir Path directory) throws IOException {
        Path certificate = Files.writeString(directory.resolve("client.pem"), "certificate");

        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of("NATS_CERT", certificate.toString())));

        assertEquals("NATS_CERT and NATS_KEY go together: set both or neither", failure.getMessage());
    }

    @Test
    void credentialsAndAnNkeyAreTwoWaysToAuthenticate(@TempDir Path directory) throws IOException {
        Path creds = Files.writeString(directory.resolve("user.creds"), "creds");
        Path seed = Files.writeString(directory.resolve("user.nk"), "seed");

        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> Settings.fromEnvironment(
                Map.of("NATS_CREDS", creds.toString(), "NATS_NKEY", seed.toString())));

        assertTrue(failure.getMessage().startsWith("set one way to authenticate"), failure.getMessage());
    }

    @Test
    void theStartUpLineNamesTheWayToAuthenticateButNoSecret(@TempDir Path directory) throws IOException {
        Path certificate = Files.writeString(directory.resolve("client.pem"), "certificate");
        Path key = Files.writeString(directory.resolve("client.key"), "key");

        Settings settings = Settings.fromEnvironment(Map.of("NATS_USER", "alice", "NATS_PASSWORD", "hunter2",
                "NATS_CERT", certificate.toString(), "NATS_KEY", key.toString()));

        assertEquals("user alice, TLS client certificate " + certificate, settings.describeAuthentication());
        assertFalse(settings.describeAuthentication().contains("hunter2"));
        assertEquals("token", Settings.fromEnvironment(Map.of("NATS_TOKEN", "s3cret")).describeAuthentication());
    }

    @Test
    void httpIsOffUnlessAPortIsSetAndThenListensOnLoopback() {
        assertEquals(HttpSettings.OFF, Settings.fromEnvironment(Map.of()).http());

        InetSocketAddress address = Settings.fromEnvironment(Map.of("DAGNATS_HTTP_PORT", "9464")).http().address()
                .orElseThrow();
        assertEquals("127.0.0.1", address.getAddress().getHostAddress());
        assertEquals(9464, address.getPort());
        InetSocketAddress everywhere = Settings.fromEnvironment(Map.of("DAGNATS_HTTP_PORT", "0",
                "DAGNATS_HTTP_ADDRESS", "0.0.0.0")).http().address().orElseThrow();
        assertTrue(everywhere.getAddress().isAnyLocalAddress(), everywhere.toString());
    }

    @Test
    void anHttpAddressWithoutAPortOrAPortOutOfRangeStopsTheStart() {
        IllegalArgumentException noPort = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of("DAGNATS_HTTP_ADDRESS", "0.0.0.0")));
        assertEquals("DAGNATS_HTTP_ADDRESS needs DAGNATS_HTTP_PORT: without a port dagnats serves no HTTP",
                noPort.getMessage());
        IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of("DAGNATS_HTTP_PORT", "70000")));
        assertEquals("DAGNATS_HTTP_PORT must be from 0 to 65535, not 70000", range.getMessage());
    }

    @Test
    void otelsOwnPrometheusExporterIsRefusedWithTheWayDagnatsServesIt() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of("OTEL_METRICS_EXPORTER", "otlp, prometheus")));
        assertTrue(refused.getMessage().contains("set DAGNATS_HTTP_PORT and scrape /metrics"), refused.getMessage());
    }
}
