package io.dagnats.leases.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an instance publishes about its setup names the way, never the secret or its file. */
class ServiceDetailsTest {

    @TempDir
    Path directory;

    @Test
    void authenticationIsNamedByItsKindAlone() throws IOException {
        Path creds = Files.writeString(directory.resolve("dagnats.creds"), "x");

        assertEquals("none", ServiceDetails.authentication(Settings.fromEnvironment(Map.of()).connection()));
        assertEquals("creds", ServiceDetails.authentication(
                Settings.fromEnvironment(Map.of("NATS_CREDS", creds.toString())).connection()));
        assertEquals("user", ServiceDetails.authentication(
                Settings.fromEnvironment(Map.of("NATS_USER", "alice", "NATS_PASSWORD", "pw")).connection()));
        assertEquals("token", ServiceDetails.authentication(
                Settings.fromEnvironment(Map.of("NATS_TOKEN", "s3cret")).connection()));
    }

    @Test
    void tlsIsOnWithItsFilesOrATlsUrlAndOffOtherwise() throws IOException {
        Path ca = Files.writeString(directory.resolve("ca.pem"), "x");
        Settings plain = Settings.fromEnvironment(Map.of());
        Settings tlsUrl = Settings.fromEnvironment(Map.of("NATS_URL", "tls://nats:4222"));
        Settings withCa = Settings.fromEnvironment(Map.of("NATS_CA", ca.toString()));

        assertEquals("off", ServiceDetails.tls(plain.connection(), plain.tls()));
        assertEquals("on (the JDK's trust store)", ServiceDetails.tls(tlsUrl.connection(), tlsUrl.tls()));
        assertEquals("on (CA file)", ServiceDetails.tls(withCa.connection(), withCa.tls()));
    }

    @Test
    void theOtlpEndpointIsTheGeneralOneFirstWithoutUserInfo() {
        assertEquals("none", ServiceDetails.otlpEndpoint(new TelemetrySettings(Map.of())));
        assertEquals("http://collector:4318", ServiceDetails.otlpEndpoint(new TelemetrySettings(Map.of(
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
                "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://other:4318/v1/metrics"))));
        assertEquals("https://collector/v1/traces", ServiceDetails.otlpEndpoint(new TelemetrySettings(Map.of(
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://user:pw@collector/v1/traces"))));
    }
}
