package io.dagnats.leases.acceptance.attached;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Dispatcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** 10 000 keys attached to one member are all told freed within seconds of its end, not minutes (ADR-043). */
class ManyAttachedKeysAcceptanceTest extends SharedServiceTest {

    private static final int KEYS = 10_000;
    private static final int IN_FLIGHT = 200;
    private static final Duration FREED_WITHIN = Duration.ofSeconds(30);

    @Test
    void tenThousandKeysOfARevokedMemberAreFreedWithinSeconds() throws Exception {
        String set = AttachedKeys.key("many");
        JsonNode member = client.acquire(set + "-member", "alice", 60_000);
        Set<String> freed = ConcurrentHashMap.newKeySet();
        Dispatcher events = client.connection().createDispatcher(event -> {
            if (event.getSubject().startsWith("dagnats.lease.changed." + set + "-s-")
                    && "freed".equals(event.getHeaders().getFirst("Dagnats-Lease-Event"))) {
                freed.add(event.getSubject());
            }
        });
        events.subscribe("dagnats.lease.changed.>");
        client.connection().flush(Duration.ofSeconds(5));
        for (int from = 0; from < KEYS; from += IN_FLIGHT) {
            List<CompletableFuture<JsonNode>> batch = new ArrayList<>();
            for (int i = from; i < Math.min(KEYS, from + IN_FLIGHT); i++) {
                batch.add(client.callAsync("attach", WireClient.object().put("key", set + "-s-" + i)
                        .put("holder", "alice").put("member", set + "-member")
                        .put("member_tenure", member.path("tenure").asLong()).toString()));
            }
            for (CompletableFuture<JsonNode> reply : batch) {
                assertTrue(reply.join().path("granted").asBoolean(), reply.join().toString());
            }
        }

        long revoked = System.nanoTime();
        client.revoke(set + "-member", "member gone");
        assertFalse(client.owner(set + "-s-0").path("held").asBoolean(), "free at once, before any freed write");
        long deadline = revoked + FREED_WITHIN.toNanos();
        while (freed.size() < KEYS && System.nanoTime() < deadline) {
            Polling.pause();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - revoked);
        System.err.println("ManyAttachedKeysAcceptanceTest: " + freed.size() + " freed events in " + took.toMillis() + " ms");
        assertEquals(KEYS, freed.size(), "every key's freed event within " + FREED_WITHIN + " (took " + took + ")");
        client.connection().closeDispatcher(events);
    }
}
