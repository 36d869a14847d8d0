package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.IdentityNats;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.api.StreamConfiguration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A bucket serves one identity mode (ADR-036, amended): the mode decides how keys are named in
 * it ({@code $KV.leases.<key>} or {@code $KV.leases.<account>.<key>}) and whether callers are
 * checked at all, so replicas of both modes on one bucket and queue group would answer the same
 * application lease as two leases, one of them unchecked. The bucket records its mode
 * ({@code dagnats.identity}); a replica of the other mode refuses to serve it. On the multi-account
 * server of docs/examples/identity.conf, one server per test (each test's bucket is its own).
 */
class OneIdentityModePerBucketAcceptanceTest {

    private static final long TTL = 30_000;
    /** A user of dagnats' account allowed everything: stands in for an operator editing the stream by hand. */
    /** dagnats' loggers; held here, since java.util.logging keeps loggers only weakly. */
    private static final Logger DAGNATS_LOG = Logger.getLogger("io.dagnats.leases");
    private static final String ADMIN = "{ user: admin, password: \"admin-secret\" }";

    private NatsServerProcess nats;
    private final List<AutoCloseable> opened = new ArrayList<>();

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

    private <T extends AutoCloseable> T open(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    /** Stops a replica before the test ends: its callers' requests go to the other one. */
    private void stop(DagnatsServer replica) throws InterruptedException {
        opened.remove(replica);
        replica.close();
    }

    private DagnatsServer identityModeReplica() {
        return open(DagnatsServer.start(IdentityNats.identityMode(nats)));
    }

    private DagnatsServer modeOffReplica() {
        return open(DagnatsServer.start(IdentityNats.settings(nats, "dagnats", Map.of())));
    }

    private WireClient as(String user) {
        return open(new WireClient(IdentityNats.options(nats, user).build()));
    }

    private static long granted(JsonNode reply) {
        assertTrue(reply.path("granted").asBoolean(), reply.toString());
        return reply.get("revision").asLong();
    }

    /** The replica's own verdict, as its start line and status say it. */
    private static void assertRefusesForItsMode(DagnatsServer replica) {
        BucketStatus status = replica.status();
        assertInstanceOf(BucketStatus.Unsupported.class, status, status.describe());
        assertTrue(status.describe().contains("dagnats.identity"), status.describe());
    }

    /** Every subject, as the one replica left answers it: refused for the bucket's mode, nothing served. */
    private static void assertEveryCallIsRefusedForTheMode(WireClient holder, WireClient operator, long revision) {
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

    @Test
    void aReplicaWithIdentityModeOffRefusesTheBucketOfAnIdentityModeDeployment() throws Exception {
        DagnatsServer identityMode = identityModeReplica();
        WireClient alice = as("alice");
        long h1 = granted(alice.acquire("leader", "h1", TTL));

        DagnatsServer modeOff = modeOffReplica();
        assertInstanceOf(BucketStatus.Ready.class, identityMode.status(), identityMode.status().describe());
        stop(identityMode);

        // Every call now reaches the mode-off replica. Before, it granted h2 "leader" in the shared
        // namespace while h1 held A's "leader": two owners of one application lease.
        assertEveryCallIsRefusedForTheMode(alice, as("operator"), h1);
        assertRefusesForItsMode(modeOff);
    }

    @Test
    void anIdentityModeReplicaRefusesTheBucketOfAModeOffDeployment() throws Exception {
        DagnatsServer modeOff = modeOffReplica();
        WireClient alice = as("alice");
        long h1 = granted(alice.acquire("leader", "h1", TTL));

        DagnatsServer identityMode = identityModeReplica();
        assertInstanceOf(BucketStatus.Ready.class, modeOff.status(), modeOff.status().describe());
        stop(modeOff);

        // Before, the identity-mode replica granted h2 A's "leader" while h1 held the shared one.
        assertEveryCallIsRefusedForTheMode(alice, as("operator"), h1);
        assertRefusesForItsMode(identityMode);
    }

    /**
     * The upgrade path: a bucket made before the mode was recorded is a mode-off bucket (every bucket
     * before ADR-036 was); recording the mode by hand hands it to the other mode's replicas, at their
     * next look, and takes it from this mode's.
     */
    @Test
    void aBucketThatRecordsNoModeIsModeOffUntilTheModeIsRecorded() throws Exception {
        DagnatsServer modeOff = modeOffReplica();
        recordMode(null);

        DagnatsServer identityMode = identityModeReplica();
        assertRefusesForItsMode(identityMode);
        Polling.until(Duration.ofSeconds(20), "the mode-off replica to serve the unrecorded bucket", modeOff::status,
                status -> status instanceof BucketStatus.Ready);

        recordMode("accounts");
        Polling.until(Duration.ofSeconds(20), "the identity-mode replica to serve", identityMode::status,
                status -> status instanceof BucketStatus.Ready);
        Polling.until(Duration.ofSeconds(20), "the mode-off replica to refuse", modeOff::status,
                status -> status instanceof BucketStatus.Unsupported && status.describe().contains("dagnats.identity"));
        stop(modeOff);
        granted(as("alice").acquire("leader", "h1", TTL));
    }

    /**
     * The grace as a second line (the switch itself waits out the longest TTL before deleting the
     * bucket, ADR-036 F2 item 4): a replica of the new mode that looked at the old bucket (and refused
     * it) and creates the new one knew the old one, so the new bucket grants no free key for the grace
     * period (ADR-026 rule 6). A new-mode replica that never saw the old bucket gives no such grace.
     */
    @Test
    void aBucketRecreatedByTheOtherModeGrantsNothingUntilTheOldOwnersLeasesRanOut() throws Exception {
        DagnatsServer modeOff = modeOffReplica();
        granted(as("alice").acquire("leader", "h1", TTL));
        DagnatsServer identityMode = identityModeReplica();
        assertRefusesForItsMode(identityMode);
        stop(modeOff);

        try (Connection admin = Nats.connect(IdentityNats.options(nats, "admin").build())) {
            admin.jetStreamManagement().deleteStream("KV_leases");
        }
        BucketStatus.Ready recreated = (BucketStatus.Ready) Polling.until(Duration.ofSeconds(20),
                "the identity-mode replica to create the bucket again", identityMode::status,
                status -> status instanceof BucketStatus.Ready);
        assertTrue(recreated.grantsFrom().isPresent(), recreated.describe());
        JsonNode acquire = as("alice").acquire("leader", "h2", TTL);
        assertEquals("unavailable", acquire.path("kind").asText(), acquire.toString());
        assertTrue(acquire.path("error").asText().contains("no free key is granted until"), acquire.toString());
    }

    /**
     * A dagnats user that may not update the stream (no {@code $JS.API.STREAM.UPDATE.KV_leases}; the
     * example allows it since ADR-037, so it is taken out here),
     * so the creation stamp (ADR-035) cannot be recorded. That is said once, in one line, and not tried
     * at every look (before: a server permission violation and a warning at every look, each look held
     * up for the JetStream timeout). The mode itself needs no update: it is recorded at creation.
     */
    @Test
    void aReplicaThatMayNotUpdateTheBucketSaysSoInOneLine() throws Exception {
        nats.close();
        nats = IdentityNats.start(ADMIN, "$JS.API.STREAM.UPDATE.KV_leases");
        List<LogRecord> warnings = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord line) {
                if (line.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(line);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        DAGNATS_LOG.addHandler(capture);
        try (Connection admin = Nats.connect(IdentityNats.options(nats, "admin").build())) {
            AtomicInteger looks = new AtomicInteger();
            admin.createDispatcher(look -> looks.incrementAndGet()).subscribe("$JS.API.STREAM.INFO.KV_leases");
            admin.flush(Duration.ofSeconds(5));
            DagnatsServer identityMode = identityModeReplica();

            Polling.until(Duration.ofSeconds(40), "five looks at the bucket", looks::get, seen -> seen >= 5);
            List<String> lines = warnings.stream().map(LogRecord::getMessage).toList();
            assertEquals(1, lines.size(), String.join("\n", lines));
            assertTrue(lines.get(0).contains("$JS.API.STREAM.UPDATE.KV_leases"), lines.get(0));
            assertInstanceOf(BucketStatus.Ready.class, identityMode.status(), identityMode.status().describe());
            assertEquals("accounts", admin.jetStreamManagement().getStreamInfo("KV_leases").getConfiguration()
                    .getMetadata().get("dagnats.identity"));
        } finally {
            DAGNATS_LOG.removeHandler(capture);
        }
    }

    /** Sets (or, with null, removes) the bucket's recorded mode, as an operator would with nats' own tools. */
    private void recordMode(String mode) throws Exception {
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
