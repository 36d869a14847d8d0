package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Certificates;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.nats.client.Connection;
import io.nats.client.NKey;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * dagnats connects with the credentials users give it, under the variable names the NATS tools use:
 * a user and password, a token, an nkey seed file, and TLS with a private CA and a client certificate.
 */
class AuthenticationAcceptanceTest {

    @Test
    void userAndPassword() throws Exception {
        try (NatsServerProcess nats = NatsServerProcess.modern("--user", "dagnats", "--pass", "s3cret");
                DagnatsServer dagnats = DagnatsServer.start(Settings.fromEnvironment(Map.of(
                        "NATS_URL", nats.url(), "NATS_USER", "dagnats", "NATS_PASSWORD", "s3cret")))) {
            assertInstanceOf(BucketStatus.Ready.class, dagnats.status());
            assertAcquireWorks(Options.builder().server(nats.url()).userInfo("dagnats", "s3cret"));
        }
    }

    @Test
    void token() throws Exception {
        try (NatsServerProcess nats = NatsServerProcess.modern("--auth", "t0ken");
                DagnatsServer dagnats = DagnatsServer.start(Settings.fromEnvironment(Map.of(
                        "NATS_URL", nats.url(), "NATS_TOKEN", "t0ken")))) {
            assertInstanceOf(BucketStatus.Ready.class, dagnats.status());
            assertAcquireWorks(Options.builder().server(nats.url()).token("t0ken".toCharArray()));
        }
    }

    @Test
    void wrongCredentialsFailTheStartWithASentence() {
        try (NatsServerProcess nats = NatsServerProcess.modern("--auth", "t0ken")) {
            IllegalStateException failure = assertThrows(IllegalStateException.class,
                    () -> DagnatsServer.start(Settings.fromEnvironment(Map.of(
                            "NATS_URL", nats.url(), "NATS_TOKEN", "wrong"))));
            assertTrue(failure.getMessage().startsWith("could not connect to " + nats.url()), failure.getMessage());
        }
    }

    private static void assertAcquireWorks(Options.Builder options) throws Exception {
        try (Connection caller = Nats.connect(options.build())) {
            JsonNode reply = WireClient.parse(caller.request("api.leases.acquire",
                    "{\"key\":\"auth\",\"holder\":\"h\",\"ttl_ms\":5000}".getBytes(), Duration.ofSeconds(5)));
            assertTrue(reply.path("granted").asBoolean(), reply.toString());
        }
    }

    private static NatsServerProcess serverWithConfig(String config) throws Exception {
        Path file = Files.createTempFile("nats-", ".conf");
        Files.writeString(file, config);
        return NatsServerProcess.start(NatsServerProcess.binary("nats.server.bin"), false, "-c", file.toString());
    }

    @Test
    void anNkeySeedFile() throws Exception {
        NKey user = NKey.createUser(null);
        Path seed = Files.createTempFile("dagnats-", ".nk");
        Files.writeString(seed, new String(user.getSeed()));
        int port = NatsServerProcess.freePort();
        Path store = Files.createTempDirectory("nats-nkey-");
        String config = "listen: 127.0.0.1:" + port + "\njetstream { store_dir: \"" + store + "\" }\n"
                + "authorization { users = [ { nkey: " + new String(user.getPublicKey()) + " } ] }\n";
        try (NatsServerProcess nats = serverWithConfig(config);
                DagnatsServer dagnats = DagnatsServer.start(Settings.fromEnvironment(Map.of(
                        "NATS_URL", nats.url(), "NATS_NKEY", seed.toString())))) {
            assertInstanceOf(BucketStatus.Ready.class, dagnats.status(), dagnats.status().describe());
        }
    }

    @Test
    void tlsWithAPrivateCaAndAClientCertificate() throws Exception {
        Certificates certificates = Certificates.issue(Files.createTempDirectory("dagnats-tls-"), "rsa:2048");
        try (NatsServerProcess nats = NatsServerProcess.modern(certificates.serverArguments().toArray(String[]::new));
                DagnatsServer dagnats = DagnatsServer.start(Settings.fromEnvironment(Map.of(
                        "NATS_URL", "tls://127.0.0.1:" + nats.port(),
                        "NATS_CA", certificates.file("ca.pem").toString(),
                        "NATS_CERT", certificates.file("client.pem").toString(),
                        "NATS_KEY", certificates.file("client-key.pem").toString())))) {
            assertInstanceOf(BucketStatus.Ready.class, dagnats.status(), dagnats.status().describe());
        }
    }
}
