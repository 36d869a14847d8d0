package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.PublishAck;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the recreated-bucket tests share: one service of their own, a wire client, and what an
 * operator does to its {@code leases} bucket by hand (delete, recreate, write as dagnats would).
 * A base class so that the tests, split by the rule they prove, moved without being rewritten.
 */
abstract class BucketRecreation {

    static final Set<String> REFUSALS = Set.of("lost", "unavailable", "unsupported");

    ServiceFixture service;
    WireClient client;

    @BeforeEach
    void start() {
        service = ServiceFixture.start();
        client = service.client;
    }

    @AfterEach
    void stop() throws InterruptedException {
        service.close();
    }

    static final long BILLION = 1_000_000_000L;

    StreamConfiguration configuration() {
        try {
            return management().getStreamInfo("KV_leases").getConfiguration();
        } catch (Exception notNow) {
            return null;
        }
    }

    /**
     * Lost; or unsupported naming the first sequence, when the service happened to look at the
     * bucket (every 2 s) between the recreation and the call, and refused the copy for starting at
     * or below fences it had handed out (ADR-026 rule 5).
     */
    static void assertLostUnlessTheCopyWasRefused(JsonNode reply, JsonNode owner) {
        assertRefused(reply);
        String kind = reply.path("kind").asText();
        assertTrue(kind.equals("lost") || kind.equals("unsupported") && reply.path("error").asText().contains("first sequence"),
                reply + " (owner answered " + owner + ")");
    }

    String recordedGrace() {
        try {
            return management().getStreamInfo("KV_leases").getConfiguration().getMetadata().get("dagnats.grants-from");
        } catch (Exception notNow) {
            return null;
        }
    }

    boolean bucketExists() {
        try {
            return management().getStreamNames().contains("KV_leases");
        } catch (Exception notNow) {
            return false;
        }
    }

    JetStreamManagement management() throws Exception {
        return client.connection().jetStreamManagement();
    }

    /** Deletes the bucket and creates it again as a raw stream with the safe settings, as an operator might. */
    void recreateByHand(long firstSequence) throws Exception {
        recreateByHand(BucketSettingsAcceptanceTest.safeBucket().firstSequence(firstSequence).build());
    }

    /** Deletes the bucket and creates it again with {@code configuration}. */
    void recreateByHand(StreamConfiguration configuration) throws Exception {
        BucketByHand.recreate(management(), configuration);
    }

    long writeAsDagnats(String key, String holder, long expectedSequence) throws Exception {
        return writeAsDagnats(client, key, holder, expectedSequence);
    }

    /** A lease record exactly as a dagnats instance writes it (see LeaseRecord and NatsLeaseStore). */
    static long writeAsDagnats(WireClient client, String key, String holder, long expectedSequence)
            throws Exception {
        Instant now = Instant.now();
        Headers headers = new Headers()
                .put("Nats-Expected-Last-Subject-Sequence", Long.toString(expectedSequence))
                .put("Nats-TTL", "30s")
                .put("Dagnats-Lease-Event", "acquired");
        String body = "{\"holder\":\"" + holder + "\",\"acquired_at\":\"" + now + "\",\"written_at\":\"" + now
                + "\",\"ttl_ms\":30000}";
        PublishAck ack = client.connection().jetStream().publish(NatsMessage.builder()
                .subject("$KV.leases." + key)
                .headers(headers)
                .data(body.getBytes(StandardCharsets.UTF_8))
                .build());
        return ack.getSeqno();
    }

    MessageInfo lastMessage(String key) throws Exception {
        return management().getLastMessage("KV_leases", "$KV.leases." + key);
    }

    static void assertRefused(JsonNode reply) {
        assertFalse(reply.path("granted").asBoolean(), reply.toString());
        assertFalse(reply.path("released").asBoolean(), reply.toString());
        assertTrue(REFUSALS.contains(reply.path("kind").asText()), reply.toString());
    }
}
