package io.dagnats.leases.acceptance.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.FatJar;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The fat JAR as an operator runs it: one start line, SIGTERM drains and exits 0, bad settings exit non-zero. */
class FatJarAcceptanceTest {

    private static Process launch(Map<String, String> environment, Path output) throws IOException {
        return FatJar.command(environment)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
    }

    @Test
    void servesLogsOneStartLineAndDrainsOnSigterm() throws Exception {
        Path output = Files.createTempFile("dagnats-", ".log");
        try (NatsServerProcess nats = NatsServerProcess.modern();
                WireClient client = new WireClient(nats.url())) {
            Process dagnats = launch(Map.of("NATS_URL", nats.url()), output);
            try {
                String log = Polling.until(Duration.ofSeconds(30), "the start line",
                        () -> read(output), text -> text.contains("serving api.leases.*"));
                assertTrue(log.contains("nats-server 2.15") || log.contains("nats-server 2."), log);
                assertTrue(log.contains("leases supported"), log);
                assertEquals(1, log.lines().filter(line -> line.contains("serving")).count(), log);

                JsonNode granted = client.acquire("jar-key", "h", 15_000);
                assertTrue(granted.path("granted").asBoolean(), granted.toString());

                List<CompletableFuture<JsonNode>> inFlight = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    inFlight.add(client.callAsync("owner", "{\"key\":\"jar-key\"}"));
                }
                client.connection().flush(Duration.ofSeconds(5));
                dagnats.destroy(); // SIGTERM

                assertTrue(dagnats.waitFor(30, TimeUnit.SECONDS), "dagnats did not exit after SIGTERM");
                assertEquals(0, dagnats.exitValue(), read(output));
                int answered = 0;
                for (CompletableFuture<JsonNode> call : inFlight) {
                    if (!call.isCompletedExceptionally() && call.handle((reply, error) -> reply != null).join()) {
                        answered++;
                    }
                }
                assertEquals(inFlight.size(), answered, "requests sent before SIGTERM went unanswered");
                assertFalse(read(output).contains("Exception"), read(output));
            } finally {
                dagnats.destroyForcibly();
            }
        } finally {
            Files.deleteIfExists(output);
        }
    }

    @Test
    void aMisspeltSettingStopsTheStartWithOneLineNamingIt() throws Exception {
        Path output = Files.createTempFile("dagnats-", ".log");
        try {
            Process dagnats = launch(Map.of("DAGNATS_LEASE_REPLICA", "3"), output);
            assertTrue(dagnats.waitFor(30, TimeUnit.SECONDS));
            assertEquals(2, dagnats.exitValue());
            String log = read(output);
            assertTrue(log.contains("unknown setting DAGNATS_LEASE_REPLICA; did you mean DAGNATS_LEASE_REPLICAS?"), log);
            assertFalse(log.contains("\tat "), "a stack trace for a configuration mistake: " + log);
        } finally {
            Files.deleteIfExists(output);
        }
    }

    @Test
    void anUnreachableServerStopsTheStartWithOneLine() throws Exception {
        Path output = Files.createTempFile("dagnats-", ".log");
        try {
            int port = NatsServerProcess.freePort();
            Process dagnats = launch(Map.of("NATS_URL", "nats://127.0.0.1:" + port), output);
            assertTrue(dagnats.waitFor(60, TimeUnit.SECONDS));
            assertEquals(1, dagnats.exitValue());
            String log = read(output);
            assertTrue(log.contains("dagnats cannot start: could not connect to nats://127.0.0.1:" + port), log);
            assertFalse(log.contains("\tat "), "a stack trace for an unreachable server: " + log);
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static String read(Path output) {
        try {
            return Files.readString(output);
        } catch (IOException failed) {
            return "";
        }
    }
}
