package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.IdentityNats;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A nats-server of identity mode's accounts, replicas started on it and an admin connection, for
 * the checks dagnats makes at start. A base class so that the tests, split by the rule they prove, moved without being rewritten.
 */
abstract class IdentityStartReplicas {

    static final long TTL = 60_000;
    /** Stands in for an operator with nats' own tools (and, in the F6 attack, for an intruder in dagnats' account). */
    static final String ADMIN = "{ user: admin, password: \"admin-secret\" }";

    NatsServerProcess nats;
    final List<AutoCloseable> opened = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void startServer() throws Exception {
        nats = IdentityNats.start(ADMIN);
    }

    @AfterEach
    void stopEverything() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception ignored) {
                // already stopped
            }
        }
        nats.close();
    }

    <T extends AutoCloseable> T open(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    DagnatsServer identityModeReplica() {
        return open(DagnatsServer.start(IdentityNats.identityMode(nats)));
    }

    DagnatsServer modeOffReplica() {
        return open(DagnatsServer.start(IdentityNats.settings(nats, "dagnats", Map.of())));
    }

    void stop(DagnatsServer replica) throws InterruptedException {
        opened.remove(replica);
        replica.close();
    }

    static boolean exists(Connection admin) {
        try {
            admin.jetStreamManagement().getStreamInfo("KV_leases");
            return true;
        } catch (Exception missing) {
            return false;
        }
    }

    WireClient as(String user) {
        return open(new WireClient(IdentityNats.options(nats, user).build()));
    }

    Connection admin() throws Exception {
        return open(Nats.connect(IdentityNats.options(nats, "admin").build()));
    }

    static long granted(JsonNode reply) {
        assertTrue(reply.path("granted").asBoolean(), reply.toString());
        return reply.get("revision").asLong();
    }
}
