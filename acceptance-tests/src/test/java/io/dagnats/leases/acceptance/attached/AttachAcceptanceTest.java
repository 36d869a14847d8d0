package io.dagnats.leases.acceptance.attached;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** attach and owner of keys attached to a member lease (ADR-043), through the wire only. */
class AttachAcceptanceTest extends SharedServiceTest {

    private AttachedKeys keys;

    @BeforeEach
    void calls() {
        keys = new AttachedKeys(client);
    }

    @Test
    void attachUnderALiveMemberIsGrantedAtAFenceAndOwnerShowsTheMembersExpiry() {
        JsonNode member = keys.member(AttachedKeys.key("m"), "alice", 15_000);
        String shard = AttachedKeys.key("shard");

        JsonNode granted = keys.attach(shard, "alice", member.path("key").asText(), member.path("tenure").asLong(), "2");

        assertTrue(granted.path("granted").asBoolean(), granted.toString());
        long fence = granted.path("revision").asLong();
        assertTrue(fence > member.path("revision").asLong(), granted.toString());
        assertEquals(fence, granted.path("tenure").asLong());
        assertEquals(member.path("key").asText(), granted.path("attached_to").asText());
        assertEquals(member.path("tenure").asLong(), granted.path("member_tenure").asLong());
        assertEquals("2", granted.path("value").asText());
        JsonNode owner = client.owner(shard);
        assertTrue(owner.path("held").asBoolean(), owner.toString());
        assertEquals("alice", owner.path("holder").asText());
        assertEquals(fence, owner.path("revision").asLong());
        assertEquals(member.path("expires_at"), owner.path("expires_at"), "the member's expiry keeps the key");
        assertEquals(member.path("ttl_ms"), owner.path("ttl_ms"));
        JsonNode renewed = client.renew(member.path("key").asText(), "alice", member.path("revision").asLong());
        JsonNode afterRenew = client.owner(shard);
        assertEquals(renewed.path("expires_at"), afterRenew.path("expires_at"), afterRenew.toString());
        assertEquals(fence, afterRenew.path("revision").asLong(), "the member's renew leaves the key's fence");
    }

    @Test
    void attachAgainIsIdempotentAndAnotherMemberIsToldTheHolder() {
        JsonNode alice = keys.member(AttachedKeys.key("m"), "alice", 15_000);
        JsonNode bob = keys.member(AttachedKeys.key("m"), "bob", 15_000);
        String shard = AttachedKeys.key("shard");
        JsonNode first = keys.attach(shard, "alice", alice);

        JsonNode again = keys.attach(shard, "alice", alice);
        JsonNode other = keys.attach(shard, "bob", bob);

        assertEquals(first, again);
        assertFalse(other.path("granted").asBoolean(), other.toString());
        assertTrue(other.path("held").asBoolean());
        assertEquals("alice", other.path("holder").asText());
        assertEquals(first.path("revision"), other.path("revision"));
        JsonNode acquire = client.acquire(shard, "carol", 15_000);
        assertFalse(acquire.path("granted").asBoolean(), "a plain acquire sees it held: " + acquire);
    }

    @Test
    void aMemberNotHeldOrAWrongTenureIsLostAndWritesNothing() {
        JsonNode alice = keys.member(AttachedKeys.key("m"), "alice", 15_000);
        String shard = AttachedKeys.key("shard");

        JsonNode notHers = keys.attach(shard, "bob", alice);
        JsonNode wrongTenure = keys.attach(shard, "alice", alice.path("key").asText(),
                alice.path("tenure").asLong() + 1, null);
        JsonNode noMember = keys.attach(shard, "alice", AttachedKeys.key("absent"), 1, null);

        for (JsonNode reply : new JsonNode[] {notHers, wrongTenure, noMember}) {
            assertEquals("lost", reply.path("kind").asText(), reply.toString());
        }
        JsonNode owner = client.owner(shard);
        assertFalse(owner.path("held").asBoolean(), owner.toString());
        JsonNode acquired = client.acquire(shard, "carol", 15_000);
        assertTrue(acquired.path("granted").asBoolean(), acquired.toString());
    }

    @Test
    void listShowsLiveAttachedKeysWithTheirMembersExpiryAndLeavesOutThoseOfAnEndedMember() {
        String set = AttachedKeys.key("set");
        JsonNode alice = keys.member(set + "-member-alice", "alice", 15_000);
        JsonNode bob = keys.member(set + "-member-bob", "bob", 15_000);
        keys.attach(set + "-shard-1", "alice", alice);
        keys.attach(set + "-shard-2", "alice", alice);
        keys.attach(set + "-shard-3", "bob", bob);
        client.revoke(bob.path("key").asText(), "bob left");

        JsonNode page = client.call("list", WireClient.object().put("prefix", set + "-shard-"));

        JsonNode leases = page.path("leases");
        assertEquals(2, leases.size(), page.toString());
        for (JsonNode lease : leases) {
            assertEquals("alice", lease.path("holder").asText());
            assertEquals(alice.path("key").asText(), lease.path("attached_to").asText());
            assertEquals(alice.path("expires_at"), lease.path("expires_at"));
        }
    }

    @Test
    void revokeFreesALiveAttachedKeyAndAcquireTakesTheKeyOfAnEndedMemberAtAHigherFence() {
        JsonNode alice = keys.member(AttachedKeys.key("m"), "alice", 15_000);
        String revoked = AttachedKeys.key("shard");
        String orphaned = AttachedKeys.key("shard");
        long revokedFence = keys.attach(revoked, "alice", alice).path("revision").asLong();
        long orphanedFence = keys.attach(orphaned, "alice", alice).path("revision").asLong();

        JsonNode revoke = client.revoke(revoked, "rebalance by hand");
        assertTrue(revoke.path("revoked").asBoolean(), revoke.toString());
        assertEquals(revokedFence, revoke.path("revoked_revision").asLong());
        assertFalse(client.owner(revoked).path("held").asBoolean());

        client.release(alice.path("key").asText(), "alice", alice.path("revision").asLong());
        JsonNode acquired = client.acquire(orphaned, "carol", 15_000);
        assertTrue(acquired.path("granted").asBoolean(), "free once its member is released: " + acquired);
        assertTrue(acquired.path("revision").asLong() > orphanedFence);
        assertTrue(acquired.path("attached_to").isMissingNode(), "a plain lease now: " + acquired);
    }

    @Test
    void renewingAnAttachedKeyIsLostAndNamesTheMember() {
        JsonNode alice = keys.member(AttachedKeys.key("m"), "alice", 15_000);
        String shard = AttachedKeys.key("shard");
        JsonNode granted = keys.attach(shard, "alice", alice);

        JsonNode renew = client.renew(shard, "alice", granted.path("revision").asLong());

        assertEquals("lost", renew.path("kind").asText(), renew.toString());
        assertTrue(renew.path("error").asText().contains(alice.path("key").asText()), renew.toString());
        assertEquals(granted.path("revision"), client.owner(shard).path("revision"));
    }
}
