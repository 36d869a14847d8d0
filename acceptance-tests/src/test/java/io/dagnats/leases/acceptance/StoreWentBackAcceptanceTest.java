package io.dagnats.leases.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.nats.client.api.StreamInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store goes back (ADR-037): nats-server comes back without writes it acknowledged (here its
 * store directory is restored from an older copy, as a kill -9 with the default sync_interval can
 * also leave it). A holder then presents a revision above the stream's last sequence; dagnats,
 * started after the rollback, answers {@code lost}, says so in one line naming the key and both
 * numbers, grants the key to nobody during a grace, and then grants it above every old revision.
 */
class StoreWentBackAcceptanceTest {

    private static final Logger DAGNATS_LOG = Logger.getLogger("io.dagnats.leases");
    private static final String NO_ANSWER = "no answer";
    private static final long TTL_MS = 3_000;

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord line) {
            if (line.getLevel().intValue() >= Level.WARNING.intValue()) {
                lines.add(line.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        DAGNATS_LOG.addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        DAGNATS_LOG.removeHandler(capture);
    }

    @Test
    void aRevisionAboveTheRolledBackStreamIsLostAndTheKeyComesBackAboveItAfterAGrace() throws Exception {
        try (NatsServerProcess nats = NatsServerProcess.modern()) {
            Path copy = Files.createTempDirectory("dagnats-rollback-copy-");
            long presented;
            try (DagnatsServer before = DagnatsServer.start(settings(nats));
                    WireClient client = new WireClient(nats.url())) {
                // Long enough to outlast the restart; the renews after it ask for 3 s.
                long first = acquired(client, "k1", "h1", 10_000).path("revision").asLong();
                nats.stop();
                copyTree(nats.jetStreamDirectory(), copy);
                nats.startAgain();
                // Writes the copy will not have: h1 renews, h2 takes another key.
                presented = Polling.until(Duration.ofSeconds(30), "h1's renew after the restart",
                        () -> answer(() -> renew(client, "k1", "h1", first)),
                        answer -> answer.path("revision").asLong() > first).path("revision").asLong();
                acquired(client, "k2", "h2", TTL_MS);
                presented = renew(client, "k1", "h1", presented).path("revision").asLong();
            }
            nats.kill();
            deleteTree(nats.jetStreamDirectory());
            copyTree(copy, nats.jetStreamDirectory());
            nats.startAgain();

            try (DagnatsServer after = DagnatsServer.start(settings(nats));
                    WireClient client = new WireClient(nats.url())) {
                long last = streamInfo(client).getStreamState().getLastSequence();
                assertTrue(last < presented, "the copy must end below h1's revision: " + last + " vs " + presented);
                lines.clear();
                long renewPresented = presented;
                // As the holder library does: renew at its highest fence until told lost. While the copy still
                // shows h1's older lease (10 s), that proves nothing; once it has run out, the renew does.
                List<JsonNode> answers = new ArrayList<>();
                List<String> proof = Polling.until(Duration.ofSeconds(40), "dagnats to name the rollback", () -> {
                    answers.add(answer(() -> renew(client, "k1", "h1", renewPresented)));
                    return lines.stream().filter(line -> line.contains("went back")).toList();
                }, found -> !found.isEmpty());
                long answeredAt = System.nanoTime();
                assertTrue(answers.stream().allMatch(answer -> Set.of("lost", "unavailable", NO_ANSWER)
                        .contains(answer.path("kind").asText())), answers.toString());
                assertEquals("lost", answers.get(answers.size() - 1).path("kind").asText(), answers.toString());
                assertEquals(1, proof.size(), String.join("\n", lines));
                // The stream's last sequence as dagnats read it: the copy's, plus its expiry markers since.
                java.util.regex.Matcher named = java.util.regex.Pattern.compile("last sequence (\\d+)").matcher(proof.get(0));
                assertTrue(proof.get(0).contains("k1") && proof.get(0).contains(Long.toString(presented)) && named.find()
                        && Long.parseLong(named.group(1)) >= last && Long.parseLong(named.group(1)) < presented, proof.get(0));

                // An instance that starts only now honours the grace too.
                try (DagnatsServer later = DagnatsServer.start(settings(nats))) {
                    List<JsonNode> refused = new ArrayList<>();
                    JsonNode granted = Polling.until(Duration.ofSeconds(30), "k1 to be granted again", () -> {
                        JsonNode h2 = answer(() -> client.acquire("k1", "h2", TTL_MS));
                        JsonNode h1 = h2.path("granted").asBoolean() ? h2 : answer(() -> client.acquire("k1", "h1", TTL_MS));
                        if (!h1.path("granted").asBoolean()) {
                            refused.add(h1);
                        }
                        return h1;
                    }, answer -> answer.path("granted").asBoolean());
                    Duration afterLost = Duration.ofNanos(System.nanoTime() - answeredAt);
                    assertTrue(afterLost.toMillis() >= TTL_MS, "k1 was granted " + afterLost.toMillis()
                            + " ms after h1 was told lost, inside h1's TTL: " + granted);
                    assertTrue(granted.path("revision").asLong() > presented, "fences must resume above " + presented
                            + ": " + granted);
                    assertFalse(refused.isEmpty(), "the grace must have refused some acquire");
                }
            }
        }
    }

    @Test
    void aRevisionFarAboveTheStreamIsLostAndChangesNothing() throws Exception {
        try (NatsServerProcess nats = NatsServerProcess.modern();
                DagnatsServer dagnats = DagnatsServer.start(settings(nats));
                WireClient client = new WireClient(nats.url())) {
            long held = acquired(client, "k1", "h1", TTL_MS).path("revision").asLong();
            StreamInfo before = streamInfo(client);
            lines.clear();
            JsonNode renewed = client.renew("k1", "h1", held + 1_000_000_000_000L);
            assertEquals("lost", renewed.path("kind").asText(), renewed.toString());
            JsonNode released = client.release("k1", "h1", held + 1_000_000_000_000L);
            assertEquals("lost", released.path("kind").asText(), released.toString());
            assertTrue(client.acquire("k2", "h2", TTL_MS).path("granted").asBoolean(), "no grace may start");
            StreamInfo after = streamInfo(client);
            assertEquals(before.getStreamState().getFirstSequence(), after.getStreamState().getFirstSequence());
            assertEquals(held, client.renew("k1", "h1", held).path("revision").asLong() - 2,
                    "h1's lease and the stream's sequence are untouched");
            assertFalse(after.getConfiguration().getMetadata().containsKey("dagnats.grants-from"),
                    after.getConfiguration().getMetadata().toString());
            assertTrue(lines.stream().noneMatch(line -> line.contains("went back")), String.join("\n", lines));
        }
    }

    private static Settings settings(NatsServerProcess nats) {
        return Settings.fromEnvironment(Map.of("NATS_URL", nats.url(), "DAGNATS_MARKER_TTL_SECONDS", "1"));
    }

    private static JsonNode acquired(WireClient client, String key, String holder, long ttlMillis) {
        return Polling.until(Duration.ofSeconds(30), holder + "'s acquire of " + key,
                () -> answer(() -> client.acquire(key, holder, ttlMillis)), answer -> answer.path("granted").asBoolean());
    }

    private static JsonNode renew(WireClient client, String key, String holder, long revision) {
        return client.call("renew", WireClient.object().put("key", key).put("holder", holder).put("revision", revision)
                .put("ttl_ms", TTL_MS));
    }

    private static StreamInfo streamInfo(WireClient client) throws Exception {
        return client.connection().jetStreamManagement().getStreamInfo("KV_leases");
    }

    /** The reply, or {@code {"kind": "no answer"}} while the restarted server has no dagnats yet. */
    private static JsonNode answer(Supplier<JsonNode> call) {
        try {
            return call.get();
        } catch (CompletionException | CancellationException notYet) {
            return WireClient.object().put("kind", NO_ANSWER);
        }
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (var files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }

    private static void deleteTree(Path root) throws Exception {
        try (var files = Files.walk(root)) {
            for (Path file : files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(file);
            }
        }
    }
}
