package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.IdentityNats;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.api.StreamConfiguration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A nats-server of identity mode's accounts and replicas of either mode started on it, for the
 * tests of the mode a bucket serves. A base class so that the tests, split by the rule they prove, moved without being rewritten.
 */
abstract class IdentityModeReplicas {

    static final long TTL = 30_000;
    /** A user of dagnats' account allowed everything: stands in for an operator editing the stream by hand. */
    /** dagnats' loggers; held here, since java.util.logging keeps loggers only weakly. */
    static final Logger DAGNATS_LOG = Logger.getLogger("io.dagnats.leases");
    static final String ADMIN = "{ user: admin, password: \"admin-secret\" }";

    NatsServerProcess nats;
    final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeEach
    void startServer() throws Exception {
        nats = IdentityNats.start(ADMIN);
    }

    @AfterEach
    void stopEverything() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        nats.close();
    }

    <T extends AutoCloseable> T open(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    /** Stops a replica before the test ends: its callers' requests go to the other one. */
    void stop(DagnatsServer replica) throws InterruptedException {
        opened.remove(replica);
        replica.close();
    }

    DagnatsServer identityModeReplica() {
        return open(DagnatsServer.start(IdentityNats.identityMode(nats)));
    }

    DagnatsServer modeOffReplica() {
        return open(DagnatsServer.start(IdentityNats.settings(nats, "dagnats", Map.of())));
    }

    WireClient as(String user) {
        return open(new WireClient(IdentityNats.options(nats, user).build()));
    }

    static long granted(JsonNode reply) {
        assertTrue(reply.path("granted").asBoolean(), reply.toString());
        return reply.get("revision").asLong();
    }

    /** The replica's own verdict, as its start line and status say it. */
    static void assertRefusesForItsMode(DagnatsServer replica) {
        BucketStatus status = replica.status();
        assertInstanceOf(BucketStatus.Unsupported.class, status, status.describe());
        assertTrue(status.describe().contains("dagnats.identity"), status.describe());
    }

    /** Every subject, as the one replica left answers it: refused for the bucket's mode, nothing served. */
    static void assertEveryCallIsRefusedForTheMode(WireClient holder, WireClient operator, long revision) {
        List<JsonNode> replies = List.of(
                holder.acquire("leader", "h2", TTL),
                holder.renew("leader", "h1", revision),
                holder.release("leader", "h1", revision),
                holder.owner("leader"),
                holder.call("forward", WireClient.object().put("key", "leader").put("payload", "")),
                holder.call("list", WireClient.object()),
                operator.call("revoke", WireClient.object().put("key", "leader").put("reason", "mixed modes")));
        for (JsonNode reply : replies) {
            // unavailable ("retry"): another replica of the queue group, of the bucket's mode, may serve it.
            assertEquals("unavailable", reply.path("kind").asText(), "a replica of the other mode served: " + reply);
            assertTrue(reply.path("error").asText().contains("dagnats.identity"), reply.toString());
        }
    }

    /** Sets (or, with null, removes) the bucket's recorded mode, as an operator would with nats' own tools. */
    void recordMode(String mode) throws Exception {
        try (Connection admin = Nats.connect(IdentityNats.options(nats, "admin").build())) {
            JetStreamManagement management = admin.jetStreamManagement();
            StreamConfiguration configuration = management.getStreamInfo("KV_leases").getConfiguration();
            Map<String, String> metadata = new HashMap<>();
            configuration.getMetadata().forEach((key, value) -> {
                if (!key.startsWith("_nats.")) {
                    metadata.put(key, value);
                }
            });
            if (mode == null) {
                metadata.remove("dagnats.identity");
            } else {
                metadata.put("dagnats.identity", mode);
            }
            management.updateStream(StreamConfiguration.builder(configuration).metadata(metadata).build());
            assertFalse(mode == null && management.getStreamInfo("KV_leases").getConfiguration().getMetadata()
                    .containsKey("dagnats.identity"), "the mode is still recorded");
        }
    }
}
