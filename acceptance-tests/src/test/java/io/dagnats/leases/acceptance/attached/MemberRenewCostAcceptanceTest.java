package io.dagnats.leases.acceptance.attached;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import org.junit.jupiter.api.Test;

/** One keep-alive keeps every attached key: renewing the member writes nothing on them (ADR-043). */
class MemberRenewCostAcceptanceTest extends SharedServiceTest {

    @Test
    void renewingTheMemberThreeTimesGrowsTheStreamByThreeWhateverIsAttached() throws Exception {
        AttachedKeys keys = new AttachedKeys(client);
        JsonNode member = keys.member(AttachedKeys.key("m"), "alice", 15_000);
        for (int i = 0; i < 200; i++) {
            assertTrue(keys.attach(AttachedKeys.key("shard"), "alice", member).path("granted").asBoolean());
        }
        long before = lastSequence();

        long revision = member.path("revision").asLong();
        for (int i = 0; i < 3; i++) {
            JsonNode renewed = client.renew(member.path("key").asText(), "alice", revision);
            assertTrue(renewed.path("granted").asBoolean(), renewed.toString());
            revision = renewed.path("revision").asLong();
        }

        assertEquals(before + 3, lastSequence());
    }

    private static long lastSequence() throws Exception {
        return client.connection().jetStreamManagement().getStreamInfo("KV_leases").getStreamState().getLastSequence();
    }
}
