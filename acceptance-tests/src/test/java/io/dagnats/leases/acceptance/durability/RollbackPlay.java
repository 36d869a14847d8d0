package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.DagnatsWarnings;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.StoreRollback;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.nats.client.api.StreamInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The store going back (ADR-037), played on a real nats-server, for every setup that must survive
 * it: nats-server comes back without writes it acknowledged (its store directory restored from an
 * older copy, as a kill -9 with the default sync_interval can also leave it), and a holder presents
 * a revision above the stream's last sequence to a dagnats started after the rollback.
 */
final class RollbackPlay {

    /** The TTL the renews after the restart ask for, and the acquires after the rollback. */
    static final long TTL_MS = 3_000;
    private static final String NO_ANSWER = "no answer";

    /**
     * One setup of the play.
     *
     * @param nats    the server, started
     * @param dagnats the settings of a new dagnats instance
     * @param holder  opens a connection of the holders h1 and h2
     * @param admin   opens a connection that may read the bucket's stream info
     */
    record Setup(NatsServerProcess nats, Supplier<Settings> dagnats, Supplier<WireClient> holder,
            Supplier<WireClient> admin) {
    }

    private RollbackPlay() {
    }

    /**
     * h1 holds k1, the store is copied, h1 renews twice and h2 takes k2, then the copy is restored
     * under a fresh dagnats: h1's renew at its highest revision must be answered {@code lost}, with one
     * line naming k1 and both numbers; k1 must be granted to nobody for at least h1's TTL after that
     * answer (an instance started only then honours that too) and then above h1's revision.
     */
    static void wentBackAndResumesAbove(Setup setup, DagnatsWarnings log) throws Exception {
        long presented;
        try (StoreRollback rollback = StoreRollback.of(setup.nats())) {
            presented = issuedAboveACopy(setup, rollback);
        }
        try (DagnatsServer after = DagnatsServer.start(setup.dagnats().get());
                WireClient client = setup.holder().get();
                WireClient admin = setup.admin().get()) {
            long last = streamInfo(admin).getStreamState().getLastSequence();
            assertTrue(last < presented, "the copy must end below h1's revision: " + last + " vs " + presented);
            log.clear();
            // As the holder library does: renew at its highest fence until told lost. While the copy still
            // shows h1's older lease (10 s), that proves nothing; once it has run out, the renew does.
            List<JsonNode> answers = new ArrayList<>();
            List<String> proof = Polling.until(Duration.ofSeconds(40), "dagnats to name the rollback", () -> {
                answers.add(answer(() -> renew(client, "k1", "h1", presented)));
                return log.containing("went back");
            }, found -> !found.isEmpty());
            long answeredAt = System.nanoTime();
            assertTrue(answers.stream().allMatch(answer -> Set.of("lost", "unavailable", NO_ANSWER)
                    .contains(answer.path("kind").asText())), answers.toString());
            assertEquals("lost", answers.get(answers.size() - 1).path("kind").asText(), answers.toString());
            assertEquals(1, proof.size(), String.join("\n", log.lines()));
            // The stream's last sequence as dagnats read it: the copy's, plus its expiry markers since.
            Matcher named = Pattern.compile("last sequence (\\d+)").matcher(proof.get(0));
            assertTrue(proof.get(0).contains("k1") && proof.get(0).contains(Long.toString(presented)) && named.find()
                    && Long.parseLong(named.group(1)) >= last && Long.parseLong(named.group(1)) < presented, proof.get(0));

            // An instance that starts only now honours the grace too.
            try (DagnatsServer later = DagnatsServer.start(setup.dagnats().get())) {
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

    /**
     * Copies the store (server stopped), then issues revisions the copy will not have, and restores
     * the copy after a kill -9 of the server. Returns h1's highest revision, which the copy lacks.
     */
    private static long issuedAboveACopy(Setup setup, StoreRollback rollback) throws Exception {
        NatsServerProcess nats = setup.nats();
        long presented;
        try (DagnatsServer before = DagnatsServer.start(setup.dagnats().get());
                WireClient client = setup.holder().get()) {
            // Long enough to outlast the restart; the renews after it ask for 3 s.
            long first = acquired(client, "k1", "h1", 10_000).path("revision").asLong();
            rollback.takeCopy();
            // Writes the copy will not have: h1 renews, h2 takes another key.
            presented = Polling.until(Duration.ofSeconds(30), "h1's renew after the restart",
                    () -> answer(() -> renew(client, "k1", "h1", first)),
                    answer -> answer.path("revision").asLong() > first).path("revision").asLong();
            acquired(client, "k2", "h2", TTL_MS);
            presented = renew(client, "k1", "h1", presented).path("revision").asLong();
        }
        rollback.killAndRestore();
        nats.startAgain();
        return presented;
    }

    /** {@code holder}'s grant of {@code key}, asked for until given. */
    static JsonNode acquired(WireClient client, String key, String holder, long ttlMillis) {
        return Polling.until(Duration.ofSeconds(30), holder + "'s acquire of " + key,
                () -> answer(() -> client.acquire(key, holder, ttlMillis)), answer -> answer.path("granted").asBoolean());
    }

    /** A renew for {@link #TTL_MS}, as the holder library sends one. */
    static JsonNode renew(WireClient client, String key, String holder, long revision) {
        return client.call("renew", WireClient.object().put("key", key).put("holder", holder).put("revision", revision)
                .put("ttl_ms", TTL_MS));
    }

    static StreamInfo streamInfo(WireClient client) throws Exception {
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
}
