package io.dagnats.leases.acceptance.attached;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** detach and move of attached keys (ADR-043), through the wire only. */
class MoveAndDetachAcceptanceTest extends SharedServiceTest {

    private AttachedKeys keys;

    @BeforeEach
    void calls() {
        keys = new AttachedKeys(client);
    }

    @Test
    void detachFreesTheKeyAsAReleaseDoes() {
        JsonNode alice = keys.member(AttachedKeys.key("m"), "alice", 15_000);
        String shard = AttachedKeys.key("shard");
        long fence = keys.attach(shard, "alice", alice).path("revision").asLong();

        JsonNode stale = keys.detach(shard, "alice", fence - 1);
        JsonNode notHers = keys.detach(shard, "bob", fence);
        JsonNode detached = keys.detach(shard, "alice", fence);

        assertEquals("lost", stale.path("kind").asText(), stale.toString());
        assertEquals("lost", notHers.path("kind").asText(), notHers.toString());
        assertTrue(detached.path("released").asBoolean(), detached.toString());
        assertTrue(detached.path("revision").asLong() > fence);
        assertFalse(client.owner(shard).path("held").asBoolean());
        assertTrue(client.acquire(shard, "carol", 15_000).path("granted").asBoolean());
    }

    @Test
    void moveToALiveMemberHandsTheKeyOverInOneWriteAndToADeadOneWritesNothing() throws Exception {
        JsonNode alice = keys.member(AttachedKeys.key("m"), "alice", 15_000);
        JsonNode bob = keys.member(AttachedKeys.key("m"), "bob", 15_000);
        JsonNode carol = keys.member(AttachedKeys.key("m"), "carol", 15_000);
        client.revoke(carol.path("key").asText(), "gone");
        String shard = AttachedKeys.key("shard");
        long fence = keys.attach(shard, "alice", alice).path("revision").asLong();
        Subscription events = client.connection().subscribe("dagnats.lease.changed." + shard);
        client.connection().flush(Duration.ofSeconds(5));

        JsonNode toCarol = keys.move(shard, "alice", fence, "carol", carol);
        JsonNode wrongHolder = keys.move(shard, "alice", fence, "dave", bob);
        assertEquals("no_successor", toCarol.path("kind").asText(), toCarol.toString());
        assertEquals("no_successor", wrongHolder.path("kind").asText(), wrongHolder.toString());
        assertEquals(fence, client.owner(shard).path("revision").asLong(), "nothing written");

        JsonNode moved = keys.move(shard, "alice", fence, "bob", bob);

        assertTrue(moved.path("granted").asBoolean(), moved.toString());
        assertEquals("bob", moved.path("holder").asText());
        long movedFence = moved.path("revision").asLong();
        assertTrue(movedFence > fence);
        assertEquals(bob.path("key").asText(), moved.path("attached_to").asText());
        JsonNode owner = client.owner(shard);
        assertEquals("bob", owner.path("holder").asText(), owner.toString());
        assertEquals(movedFence, owner.path("revision").asLong());
        assertEquals(moved, keys.attach(shard, "bob", bob), "bob confirms with an idempotent attach");
        assertEquals("lost", keys.move(shard, "alice", fence, "bob", bob).path("kind").asText(), "alice's is gone");
        Message event = events.nextMessage(Duration.ofSeconds(5));
        assertEquals("moved", event.getHeaders().getFirst("Dagnats-Lease-Event"));
        assertEquals("alice", event.getHeaders().getFirst("Dagnats-Lease-From"));
        assertEquals("bob", event.getHeaders().getFirst("Dagnats-Lease-Holder"));
        assertEquals(bob.path("key").asText(), event.getHeaders().getFirst("Dagnats-Lease-Member"));
        // Outlives a bucket's max_age, which would otherwise remove it under a live member.
        assertEquals("never", event.getHeaders().getFirst("Nats-TTL"));
    }
}
