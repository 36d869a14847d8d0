package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.WireClient;
import org.junit.jupiter.api.Test;

/**
 * Identity mode (ADR-036) applies unchanged to keys attached to a member lease (ADR-043): the caller is
 * the holder it names, and the keys and members it names are in its own account. On the shipped
 * docs/examples/identity.conf (A shares users with dagnats, B does not).
 */
class IdentityAttachAcceptanceTest extends IdentityModeService {

    private static JsonNode attach(WireClient as, String key, String holder, String member, long tenure) {
        return as.call("attach", WireClient.object().put("key", key).put("holder", holder).put("member", member)
                .put("member_tenure", tenure));
    }

    @Test
    void onlyTheMembersOwnPrincipalAttachesUnderItAndAnotherAccountNamesOnlyItsOwnKeys() {
        WireClient alice = as("alice");
        WireClient amos = as("amos");
        WireClient bob = as("bob");
        JsonNode member = alice.acquire("ia-member-a", "worker-a", TTL);
        long tenure = member.path("tenure").asLong();

        JsonNode shard = alice.call("attach", WireClient.object().put("key", "ia-shard-1").put("holder", "worker-a")
                .put("member", "ia-member-a").put("member_tenure", tenure));
        long fence = granted(shard);
        assertEquals("A", shard.path("account").asText(), shard.toString());

        // Another user of A naming alice's holder id and member: not the principal that holds the member.
        assertKind("lost", attach(amos, "ia-shard-2", "worker-a", "ia-member-a", tenure));
        // B's names are B's keys: its ia-member-a is nobody's, and A's shard is not touched.
        assertKind("lost", attach(bob, "ia-shard-1", "worker-a", "ia-member-a", tenure));
        assertFalse(amos.owner("ia-shard-2").path("held").asBoolean());
        assertEquals(fence, alice.owner("ia-shard-1").path("revision").asLong());

        // A move to amos' own live member in A hands it over under amos' principal.
        JsonNode amosMember = amos.acquire("ia-member-amos", "worker-amos", TTL);
        JsonNode moved = alice.call("move", WireClient.object().put("key", "ia-shard-1").put("holder", "worker-a")
                .put("revision", fence).put("to_holder", "worker-amos").put("to_member", "ia-member-amos")
                .put("to_member_tenure", amosMember.path("tenure").asLong()));
        granted(moved);
        assertEquals("worker-amos", moved.path("holder").asText());
        JsonNode confirmed = attach(amos, "ia-shard-1", "worker-amos", "ia-member-amos",
                amosMember.path("tenure").asLong());
        assertEquals(moved.path("revision"), confirmed.path("revision"), "amos confirms with an idempotent attach");
        assertKind("lost", alice.call("detach", WireClient.object().put("key", "ia-shard-1").put("holder", "worker-a")
                .put("revision", moved.path("revision").asLong())));
    }
}
