package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.IdentityNats;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import io.nats.client.Options;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The multi-account nats-server of identity mode and one dagnats on it, for the test classes
 * that share them (one server and one dagnats per class, keys of each test its own), and the
 * clients of its accounts' users. A base class so that the tests, split by the rule they prove,
 * moved without being rewritten.
 */
abstract class IdentityModeService {

    static final long TTL = 30_000;
    /** A user of dagnats' own account that may publish to api.leases.> (the example has none): the misconfiguration. */
    static final String INTRUDER = """
            {
              user: intruder, password: "intruder-secret"
              permissions: { publish: { allow: [ "api.leases.>" ] }, subscribe: { allow: [ "_INBOX.>" ] } }
            }
            # dagnats' account holds dagnats and nothing else.""";

    static NatsServerProcess nats;
    static DagnatsServer dagnats;
    static final List<AutoCloseable> OPENED = new ArrayList<>();

    /** Collects the server's permission violations, which arrive asynchronously. */
    static final class Violations implements ErrorListener {
        final List<String> errors = new CopyOnWriteArrayList<>();

        @Override
        public void errorOccurred(Connection connection, String error) {
            errors.add(error);
        }

        boolean seen(String subject) {
            return errors.stream().anyMatch(error -> error.contains("Permissions Violation") && error.contains(subject));
        }
    }

    @BeforeAll
    static void start() throws Exception {
        nats = IdentityNats.start(INTRUDER);
        dagnats = DagnatsServer.start(IdentityNats.identityMode(nats));
        assertInstanceOf(BucketStatus.Ready.class, dagnats.status(), dagnats.status().describe());
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable opened : OPENED) {
            opened.close();
        }
        OPENED.clear();
        if (dagnats != null) {
            dagnats.close();
        }
        if (nats != null) {
            nats.close();
        }
    }

    static Options options(String user, ErrorListener listener) {
        return IdentityNats.options(nats, user).errorListener(listener).build();
    }

    static WireClient as(String user) {
        WireClient client = new WireClient(options(user, new Violations()));
        OPENED.add(client);
        return client;
    }

    static JsonNode renew(WireClient client, String key, String holder, long revision) {
        return client.renew(key, holder, revision);
    }

    static long granted(JsonNode reply) {
        assertTrue(reply.path("granted").asBoolean(), reply.toString());
        return reply.get("revision").asLong();
    }

    static void assertKind(String kind, JsonNode reply) {
        assertEquals(kind, reply.path("kind").asText(), reply.toString());
    }
}
