package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.IdentityNats;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/**
 * The identity mode a bucket records: a bucket that records none is mode off until one is
 * recorded, and a replica that may not record it says so in one line.
 */
class RecordedIdentityModeAcceptanceTest extends IdentityModeReplicas {

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
}
