package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Message;
import io.nats.client.Subscription;
import io.nats.client.api.StreamInfo;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The fence skip (ADR-037) never names two owners and never ends leases a plain client's stale
 * renew cannot end. Safety is judged from each holder's own record of when it believed it owned
 * the key: a raw client that renews every ttl/3 (the guide's rule) believes from a successful
 * renew's send until at least its next renew, ttl/3 later. The skip is triggered with a renew of a
 * free key presenting a revision just above the stream's last sequence: a bogus client, or (the
 * same code path) a holder after a real rollback.
 */
class FenceSkipSafetyAcceptanceTest {

    private static final long LONG_TTL_MS = 60_000;

    /**
     * A renew (or grant) with a longer TTL than any present, landing while the skip scans the TTLs,
     * must not outlive the grace: the purge would free the key under it. Before the hold, h2 owned
     * 'late' about 11 s before h1's next renew.
     */
    @Test
    void aRenewThatLandsWhileTheSkipScansOutlivesTheGrace() throws Exception {
        try (ServiceFixture service = ServiceFixture.with().environment("DAGNATS_MARKER_TTL_SECONDS", "1").start()) {
            WireClient client = service.client;
            // Keys present when the skip starts: 10 s each, and enough of them that the scan takes a while.
            for (int batch = 0; batch < 10; batch++) {
                List<CompletableFuture<JsonNode>> acquires = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    acquires.add(client.callAsync("acquire", WireClient.object().put("key", "f" + batch + "-" + i)
                            .put("holder", "filler").put("ttl_ms", 10_000).toString()));
                }
                acquires.forEach(CompletableFuture::join);
            }
            long granted = acquired(client, "late", "h1", 10_000).path("revision").asLong();
            // h1 renews at 10 s until the skip's scan is seen reading (its last sequence read already), then at 60 s.
            AtomicLong ttl = new AtomicLong(10_000);
            // The scan is seen on the leader reads that walk the stream (next_by_subj).
            Subscription scans = client.connection().subscribe("$JS.API.STREAM.MSG.GET.KV_leases");
            client.connection().flush(Duration.ofSeconds(5));
            AtomicLong h1BelievesUntil = new AtomicLong(System.nanoTime());
            AtomicLong renewsWritten = new AtomicLong();
            Thread h1 = new Thread(() -> {
                long revision = granted;
                while (true) {
                    long sent = System.nanoTime();
                    long presented = revision;
                    long asked = ttl.get();
                    JsonNode answer = answer(() -> renew(client, "late", "h1", presented, asked));
                    if (!answer.has("revision") || !answer.path("granted").asBoolean()) {
                        return;
                    }
                    revision = answer.path("revision").asLong();
                    renewsWritten.incrementAndGet();
                    h1BelievesUntil.set(sent + Duration.ofMillis(asked / 3).toNanos());
                }
            });
            h1.start();
            // Other holders renewing at 10 s: the scan reads past its last sequence only to the first
            // message beyond it, so with other writers h1's 60 s renew after that is never seen.
            List<Thread> others = new ArrayList<>();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            for (int n = 0; n < 4; n++) {
                String key = "other" + n;
                String holder = "o" + n;
                long start = acquired(client, key, holder, 10_000).path("revision").asLong();
                Thread other = new Thread(() -> {
                    long revision = start;
                    while (!stop.get()) {
                        long presented = revision;
                        JsonNode answer = answer(() -> renew(client, key, holder, presented, 10_000));
                        revision = answer.has("revision") ? answer.path("revision").asLong() : revision;
                    }
                });
                others.add(other);
                other.start();
            }
            Polling.until(Duration.ofSeconds(10), "h1 renewing", renewsWritten::get, written -> written > 5);
            skip(client, () -> {
                Message read;
                do {
                    read = scans.nextMessage(Duration.ofSeconds(10));
                } while (read != null && !new String(read.getData(), StandardCharsets.UTF_8).contains("next_by_subj"));
                assertTrue(read != null, "no scan seen");
                ttl.set(LONG_TTL_MS);
            });
            h1.join(Duration.ofSeconds(30).toMillis());
            stop.set(true);
            for (Thread other : others) {
                other.join(Duration.ofSeconds(30).toMillis());
            }
            long h2OwnsFrom = owns(client, "late", "h2");
            assertTrue(h2OwnsFrom - h1BelievesUntil.get() > 0, "two owners of 'late': h2 owned it "
                    + Duration.ofNanos(h1BelievesUntil.get() - h2OwnsFrom).toMillis() + " ms before h1's next renew"
                    + " (h1's last successful 60 s renew landed after the skip's scan read its last sequence)");
        }
    }

    /**
     * The skip's TTL scan reads through the stream leader: a direct get (what jnats' getMessage sends
     * on an allow_direct stream) may be answered by a lagging replica with an older, shorter TTL or
     * "no message found", and the grace would be shorter than the longest lease present.
     */
    @Test
    void theSkipsScanReadsThroughTheStreamLeader() throws Exception {
        try (ServiceFixture service = ServiceFixture.with().environment("DAGNATS_MARKER_TTL_SECONDS", "1").start()) {
            WireClient client = service.client;
            acquired(client, "k", "a", 15_000);
            Subscription direct = client.connection().subscribe("$JS.API.DIRECT.GET.KV_leases");
            client.connection().flush(Duration.ofSeconds(5));
            skip(client);
            Message seen = direct.nextMessage(Duration.ofMillis(100));
            assertTrue(seen == null, "the skip's scan was a direct get: "
                    + (seen == null ? "" : new String(seen.getData(), StandardCharsets.UTF_8)));
        }
    }

    /**
     * The guide's "a stale or foreign renew is lost and changes nothing", for a foreign holder: b's
     * renew at a's current fence + 1000 must not end a's lease (nor any other). a keeps renewing with
     * its own current fence, as the guide says, for two looks' time.
     */
    @Test
    void aForeignRenewAboveTheCurrentFenceChangesNothing() throws Exception {
        try (ServiceFixture service = ServiceFixture.with().environment("DAGNATS_MARKER_TTL_SECONDS", "1").start()) {
            WireClient client = service.client;
            long current = acquired(client, "k", "a", 15_000).path("revision").asLong();
            JsonNode foreign = client.renew("k", "b", current + 1000);
            assertEquals("lost", foreign.path("kind").asText(), foreign.toString());
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() - until < 0) {
                JsonNode renewed = renew(client, "k", "a", current, 15_000);
                assertTrue(renewed.path("granted").asBoolean(), "a's lease was ended by b's foreign renew: " + renewed);
                current = renewed.path("revision").asLong();
                Polling.pause();
            }
        }
    }

    /** A renew presenting a revision just above the stream's last sequence, then waits for the purge. */
    private static void skip(WireClient client) throws Exception {
        skip(client, () -> { });
    }

    /** As {@link #skip(WireClient)}, running {@code meanwhile} once the proof is answered. */
    private static void skip(WireClient client, Meanwhile meanwhile) throws Exception {
        long last = streamInfo(client).getStreamState().getLastSequence();
        JsonNode answer = client.renew("bogus", "x", last + 100_000);
        assertEquals("lost", answer.path("kind").asText(), answer.toString());
        meanwhile.run();
        Polling.until(Duration.ofSeconds(30), "the purge above " + last, () -> {
            try {
                return streamInfo(client).getStreamState().getFirstSequence();
            } catch (Exception notYet) {
                return 0L;
            }
        }, first -> first > last + 5);
    }

    /** Acquires until granted, then renews (the contract's rule): when the caller owns, on the monotonic clock. */
    private static long owns(WireClient client, String key, String holder) {
        JsonNode granted = acquired(client, key, holder, 3_000);
        JsonNode renewed = renew(client, key, holder, granted.path("revision").asLong(), 3_000);
        assertTrue(renewed.path("granted").asBoolean(), renewed.toString());
        return System.nanoTime();
    }

    private static Instant graceEnd(WireClient client) throws Exception {
        return Instant.parse(streamInfo(client).getConfiguration().getMetadata().get("dagnats.grants-from"));
    }

    private static JsonNode acquired(WireClient client, String key, String holder, long ttlMillis) {
        return Polling.until(Duration.ofSeconds(60), holder + "'s acquire of " + key,
                () -> answer(() -> client.acquire(key, holder, ttlMillis)), answer -> answer.path("granted").asBoolean());
    }

    private static JsonNode renew(WireClient client, String key, String holder, long revision, long ttlMillis) {
        return client.call("renew", WireClient.object().put("key", key).put("holder", holder).put("revision", revision)
                .put("ttl_ms", ttlMillis));
    }

    private static StreamInfo streamInfo(WireClient client) throws Exception {
        return client.connection().jetStreamManagement().getStreamInfo("KV_leases");
    }

    private interface Meanwhile {
        void run() throws Exception;
    }

    private static JsonNode answer(Supplier<JsonNode> call) {
        try {
            return call.get();
        } catch (CompletionException | CancellationException notYet) {
            return WireClient.object().put("kind", "no answer");
        }
    }
}
