package io.dagnats.leases.acceptance.attached;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dagnats.leases.acceptance.harness.WireClient;
import java.util.UUID;

/** The wire calls of ADR-043 the acceptance tests make, spelled as a plain client spells them. */
final class AttachedKeys {

    private final WireClient client;

    AttachedKeys(WireClient client) {
        this.client = client;
    }

    static String key(String what) {
        return what + "-" + UUID.randomUUID();
    }

    /** A member lease held by {@code holder}: its acquire's reply (its revision is the tenure start). */
    JsonNode member(String key, String holder, long ttlMillis) {
        return client.acquire(key, holder, ttlMillis);
    }

    JsonNode attach(String key, String holder, JsonNode member) {
        return attach(key, holder, member.path("key").asText(), member.path("tenure").asLong(), null);
    }

    JsonNode attach(String key, String holder, String member, long memberTenure, String value) {
        ObjectNode body = WireClient.object().put("key", key).put("holder", holder).put("member", member)
                .put("member_tenure", memberTenure);
        if (value != null) {
            body.put("value", value);
        }
        return client.call("attach", body);
    }

    JsonNode detach(String key, String holder, long revision) {
        return client.call("detach", WireClient.object().put("key", key).put("holder", holder).put("revision", revision));
    }

    JsonNode move(String key, String holder, long revision, String toHolder, JsonNode toMember) {
        return client.call("move", WireClient.object().put("key", key).put("holder", holder).put("revision", revision)
                .put("to_holder", toHolder).put("to_member", toMember.path("key").asText())
                .put("to_member_tenure", toMember.path("tenure").asLong()));
    }
}
