package io.dagnats.leases.acceptance.attached;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A member lease's end frees every key attached to it at once, and each key gets a freed event (ADR-043). */
class MemberEndAcceptanceTest extends SharedServiceTest {

    private static final int SHARDS = 20;
    private AttachedKeys keys;

    @BeforeEach
    void calls() {
        keys = new AttachedKeys(client);
    }

    @Test
    void aMemberExpiryFreesEveryAttachedKeyAtOnceWithAFreedEventAndAnotherMemberTakesThemAbove() throws Exception {
        String set = AttachedKeys.key("set");
        JsonNode alice = keys.member(set + "-member-alice", "alice", 1_000);
        Subscription events = client.connection().subscribe("dagnats.lease.changed.>");
        Map<String, Long> fences = new HashMap<>();
        for (int i = 0; i < SHARDS; i++) {
            JsonNode granted = keys.attach(set + "-shard-" + i, "alice", alice);
            assertTrue(granted.path("granted").asBoolean(), granted.toString());
            fences.put(set + "-shard-" + i, granted.path("revision").asLong());
        }

        Subscription memberEvents = client.connection().subscribe("dagnats.lease.changed." + set + "-member-alice");
        client.connection().flush(Duration.ofSeconds(5));
        // Waits for the server's expiry marker, reading nothing meanwhile.
        Polling.until(Duration.ofSeconds(10), "the member lease's expiry marker", () -> nextOrNull(memberEvents),
                event -> event != null && "MaxAge".equals(event.getHeaders().getFirst("Nats-Marker-Reason")));
        for (String shard : fences.keySet()) {
            JsonNode owner = client.owner(shard);
            assertFalse(owner.path("held").asBoolean(), "free as soon as its member is: " + owner);
        }
        Map<String, Message> freed = new HashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (freed.size() < SHARDS && System.nanoTime() < deadline) {
            Message event = events.nextMessage(Duration.ofMillis(200));
            if (event != null && event.getSubject().startsWith("dagnats.lease.changed." + set + "-shard-")
                    && "freed".equals(event.getHeaders().getFirst("Dagnats-Lease-Event"))) {
                freed.put(event.getSubject().substring("dagnats.lease.changed.".length()), event);
            }
        }
        assertEquals(fences.keySet(), freed.keySet(), "one freed event per attached key");
        for (Map.Entry<String, Message> event : freed.entrySet()) {
            assertEquals(alice.path("key").asText(), event.getValue().getHeaders().getFirst("Dagnats-Lease-Member"));
            assertEquals(Long.toString(fences.get(event.getKey())),
                    event.getValue().getHeaders().getFirst("Dagnats-Lease-Fence"), "the fence that ended");
            assertEquals("alice", event.getValue().getHeaders().getFirst("Dagnats-Lease-Holder"));
        }

        JsonNode bob = keys.member(set + "-member-bob", "bob", 15_000);
        List<Long> above = new ArrayList<>();
        for (Map.Entry<String, Long> shard : fences.entrySet()) {
            JsonNode granted = keys.attach(shard.getKey(), "bob", bob);
            assertTrue(granted.path("granted").asBoolean(), granted.toString());
            assertTrue(granted.path("revision").asLong() > shard.getValue(), "fences only grow: " + granted);
            above.add(granted.path("revision").asLong());
        }
        assertEquals(SHARDS, above.size());
    }

    @Test
    void keysOfAMemberWhoseExpiryAReadFoundFirstStillGetTheirFreedEvents() throws Exception {
        // nats-server removes an expired message a read asks for without writing an expiry marker.
        String set = AttachedKeys.key("set");
        JsonNode alice = keys.member(set + "-member-alice", "alice", 1_000);
        Subscription events = client.connection().subscribe("dagnats.lease.changed.>");
        client.connection().flush(Duration.ofSeconds(5));
        for (int i = 0; i < SHARDS; i++) {
            assertTrue(keys.attach(set + "-shard-" + i, "alice", alice).path("granted").asBoolean());
        }

        Polling.until(Duration.ofSeconds(10), "the member lease to be free", () -> client.owner(set + "-shard-0"),
                owner -> !owner.path("held").asBoolean());

        java.util.Set<String> freed = new java.util.HashSet<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (freed.size() < SHARDS && System.nanoTime() < deadline) {
            Message event = events.nextMessage(Duration.ofMillis(200));
            if (event != null && event.getSubject().startsWith("dagnats.lease.changed." + set + "-shard-")
                    && "freed".equals(event.getHeaders().getFirst("Dagnats-Lease-Event"))) {
                freed.add(event.getSubject());
            }
        }
        assertEquals(SHARDS, freed.size(), "one freed event per attached key: " + freed);
    }

    @Test
    void aRevokedMemberFreesItsKeysAndAForwardToThemFindsNoOwner() throws Exception {
        JsonNode alice = keys.member(AttachedKeys.key("m"), "alice", 15_000);
        String shard = AttachedKeys.key("shard");
        long fence = keys.attach(shard, "alice", alice).path("revision").asLong();
        List<Message> seen = new ArrayList<>();
        client.connection().createDispatcher(request -> {
            seen.add(request);
            client.connection().publish(request.getReplyTo(), "pong".getBytes());
        }).subscribe("dagnats.lease.inbox.alice." + shard);
        client.connection().flush(Duration.ofSeconds(5));

        JsonNode reached = forward(shard);
        client.revoke(alice.path("key").asText(), "member gone");
        JsonNode gone = forward(shard);

        assertEquals("alice", reached.path("holder").asText(), reached.toString());
        assertEquals(fence, reached.path("revision").asLong());
        assertEquals(1, seen.size());
        assertEquals(Long.toString(fence), seen.get(0).getHeaders().getFirst("Dagnats-Lease-Fence"));
        assertEquals("no_owner", gone.path("kind").asText(), gone.toString());
        assertFalse(client.owner(shard).path("held").asBoolean());
    }

    private static Message nextOrNull(Subscription events) {
        try {
            return events.nextMessage(Duration.ofMillis(100));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    private static JsonNode forward(String key) {
        return client.call("forward", "{\"key\":\"" + key + "\",\"payload\":\"cGluZw==\",\"timeout_ms\":2000}");
    }
}
