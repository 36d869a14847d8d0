package io.dagnats.leases.acceptance.packaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Certificates;
import io.dagnats.leases.acceptance.harness.FatJar;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.acceptance.operations.HttpEndpointsAcceptanceTest;
import io.nats.client.Options;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image (image/target/dagnats-image.tar) as a runtime starts it: configured by the
 * environment alone, as a non-root user, it grants a lease through a nats-server and drains on
 * SIGTERM, exiting 0. Where no container runtime can run it, its entrypoint runs outside a container
 * from its unpacked layers ({@link ImageLaunch}); the test prints which ran.
 */
@EnabledIfSystemProperty(named = "dagnats.image.tar", matches = ".+",
        disabledReason = "the image is built only with -Pimage, which scripts/test.sh sets")
class ContainerImageAcceptanceTest {

    private static final String SERVING = "serving api.leases.*";

    @TempDir
    static Path work;

    private static ContainerImage image;

    @BeforeAll
    static void openTheTarball() throws IOException {
        image = ContainerImage.open(work);
    }

    @Test
    void namesItsVersionAndSourceAndSetsNoSettingOfTheService() {
        String version = System.getProperty("dagnats.version");
        assertEquals("dagnats:" + version, image.reference());
        Map<String, String> labels = image.labels();
        assertEquals(version, labels.get("org.opencontainers.image.version"), labels.toString());
        assertEquals("dagnats leases", labels.get("org.opencontainers.image.title"), labels.toString());
        assertTrue(labels.getOrDefault("org.opencontainers.image.source", "").startsWith("https://"), labels.toString());
        assertEquals("Apache-2.0", labels.get("org.opencontainers.image.licenses"), labels.toString());

        List<String> entrypoint = image.entrypoint();
        assertEquals("/opt/java/bin/java", entrypoint.get(0), entrypoint.toString());
        assertEquals(List.of("-jar", "/app/dagnats.jar"), entrypoint.subList(entrypoint.size() - 2, entrypoint.size()));
        assertTrue(entrypoint.contains("-XX:MaxRAMPercentage=75"), "the heap follows the container's limit: " + entrypoint);
        // Its configuration is the environment docs/configuration.md lists, and the image sets none of it.
        assertEquals(Map.of("JAVA_HOME", "/opt/java", "PATH", "/opt/java/bin"), image.environment());
    }

    @Test
    void holdsTheBuiltJarAndANonRootUserOfItsOwn() throws IOException {
        String[] user = image.user().split(":");
        assertEquals(2, user.length, image.user());
        assertNotEquals("0", user[0], "the image runs as root");
        Path root = image.unpackInto(work.resolve("inspected"));
        List<String> passwd = Files.readAllLines(root.resolve("etc/passwd"));
        assertTrue(passwd.stream().anyMatch(line -> line.startsWith("dagnats:x:" + user[0] + ":" + user[1] + ":")),
                "etc/passwd names no dagnats user " + image.user() + ": " + passwd);
        assertArrayEquals(Files.readAllBytes(FatJar.path()), Files.readAllBytes(root.resolve("app/dagnats.jar")),
                "the image holds another dagnats.jar than the one just built");
        assertTrue(Files.isRegularFile(root.resolve("opt/java/lib/security/cacerts")), "no CA certificates for TLS");
    }

    @Test
    void grantsALeaseThroughANatsServerAsItsUserAndDrainsOnSigterm() throws Exception {
        int httpPort = NatsServerProcess.freePort();
        try (NatsServerProcess nats = NatsServerProcess.modern();
                WireClient client = new WireClient(nats.url());
                ImageLaunch launch = ImageLaunch.start(image, Map.of("NATS_URL", nats.url(),
                        "DAGNATS_HTTP_PORT", Integer.toString(httpPort)), work, SERVING)) {
            System.out.println("image test: ran " + launch.how());
            // The probes' HTTP server is in the image's runtime (jdk.httpserver).
            HttpEndpointsAcceptanceTest.Answer ready = Polling.until(Duration.ofSeconds(30), "/readyz through the image",
                    () -> HttpEndpointsAcceptanceTest.get("http://127.0.0.1:" + httpPort + "/readyz"),
                    answer -> answer.status() == 200);
            assertTrue(ready.body().startsWith("ready: leases supported"), ready.toString());
            String uid = image.user().split(":")[0];
            launch.service().ifPresent(service -> assertEquals(uid, uidOf(service), "the service's user"));

            JsonNode granted = client.acquire("image-leader", "image-holder", 15_000);
            assertTrue(granted.path("granted").asBoolean(), granted.toString());
            JsonNode owner = client.owner("image-leader");
            assertEquals("image-holder", owner.path("holder").asText(), owner.toString());
            assertEquals(granted.path("revision").asLong(), owner.path("revision").asLong(), owner.toString());
            // Arguments run the operator CLI.
            JsonNode listed = WireClient.JSON.readTree(launch.run("leases", "ls", "-o", "json"));
            assertEquals("image-holder", listed.at("/leases/0/holder").asText(), listed.toString());

            assertEquals(0, launch.terminate(Duration.ofSeconds(30)), launch.log());
            String log = launch.log();
            assertTrue(log.contains("dagnats stopped"), log);
            assertFalse(log.contains("Exception") || log.contains("VM warning"), log);
        }
    }

    @Test
    void connectsOverTlsWithAPrivateCaAndAnEcClientCertificate() throws Exception {
        // EC keys: the runtime's jdk.crypto.ec verifies them (without it, the handshake fails).
        Certificates certificates = Certificates.issue(Files.createDirectories(work.resolve("tls")), "ec");
        String files = ImageLaunch.FILES + "/";
        try (NatsServerProcess nats = NatsServerProcess.modern(certificates.serverArguments().toArray(String[]::new));
                WireClient client = new WireClient(new Options.Builder().server("tls://127.0.0.1:" + nats.port())
                        .sslContext(certificates.clientContext()).build());
                ImageLaunch launch = ImageLaunch.start(image, Map.of(
                        "NATS_URL", "tls://127.0.0.1:" + nats.port(),
                        "NATS_CA", files + "ca.pem",
                        "NATS_CERT", files + "client.pem",
                        "NATS_KEY", files + "client-key.pem"), Optional.of(certificates.directory()), work, SERVING)) {
            assertTrue(launch.log().contains("leases supported"), launch.log());
            JsonNode granted = client.acquire("image-tls", "image-holder", 15_000);
            assertTrue(granted.path("granted").asBoolean(), granted.toString());
            assertEquals(0, launch.terminate(Duration.ofSeconds(30)), launch.log());
        }
    }

    /** The real uid of a process, from /proc. */
    private static String uidOf(ProcessHandle process) {
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status")).stream()
                    .filter(line -> line.startsWith("Uid:"))
                    .map(line -> line.split("\\s+")[1])
                    .findFirst().orElse("none");
        } catch (IOException gone) {
            return "gone: " + gone.getMessage();
        }
    }
}
