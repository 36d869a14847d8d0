package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.DagnatsWarnings;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.StoreRollback;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.bootstrap.Settings;
import io.nats.client.api.StreamInfo;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store goes back (ADR-037): nats-server comes back without writes it acknowledged (here its
 * store directory is restored from an older copy, as a kill -9 with the default sync_interval can
 * also leave it). A holder then presents a revision above the stream's last sequence; dagnats,
 * started after the rollback, answers {@code lost}, says so in one line naming the key and both
 * numbers, grants the key to nobody during a grace, and then grants it above every old revision
 * ({@link StoreRollback}; under the shipped example configurations:
 * {@code FenceSkipUnderExampleConfigsAcceptanceTest}).
 */
class StoreWentBackAcceptanceTest {

    private static final long TTL_MS = RollbackPlay.TTL_MS;

    private DagnatsWarnings log;

    @BeforeEach
    void listen() {
        log = DagnatsWarnings.capture();
    }

    @AfterEach
    void stopListening() {
        log.close();
    }

    @Test
    void aRevisionAboveTheRolledBackStreamIsLostAndTheKeyComesBackAboveItAfterAGrace() throws Exception {
        try (NatsServerProcess nats = NatsServerProcess.modern()) {
            RollbackPlay.wentBackAndResumesAbove(new RollbackPlay.Setup(nats, () -> settings(nats),
                    () -> new WireClient(nats.url()), () -> new WireClient(nats.url())), log);
        }
    }

    @Test
    void aRevisionFarAboveTheStreamIsLostAndChangesNothing() throws Exception {
        try (ServiceFixture service = ServiceFixture.with().environment("DAGNATS_MARKER_TTL_SECONDS", "1").start()) {
            WireClient client = service.client;
            long held = RollbackPlay.acquired(client, "k1", "h1", TTL_MS).path("revision").asLong();
            StreamInfo before = RollbackPlay.streamInfo(client);
            log.clear();
            JsonNode renewed = client.renew("k1", "h1", held + 1_000_000_000_000L);
            assertEquals("lost", renewed.path("kind").asText(), renewed.toString());
            JsonNode released = client.release("k1", "h1", held + 1_000_000_000_000L);
            assertEquals("lost", released.path("kind").asText(), released.toString());
            assertTrue(client.acquire("k2", "h2", TTL_MS).path("granted").asBoolean(), "no grace may start");
            StreamInfo after = RollbackPlay.streamInfo(client);
            assertEquals(before.getStreamState().getFirstSequence(), after.getStreamState().getFirstSequence());
            assertEquals(held, client.renew("k1", "h1", held).path("revision").asLong() - 2,
                    "h1's lease and the stream's sequence are untouched");
            assertFalse(after.getConfiguration().getMetadata().containsKey("dagnats.grants-from"),
                    after.getConfiguration().getMetadata().toString());
            assertTrue(log.containing("went back").isEmpty(), String.join("\n", log.lines()));
        }
    }

    private static Settings settings(NatsServerProcess nats) {
        return Settings.fromEnvironment(Map.of("NATS_URL", nats.url(), "DAGNATS_MARKER_TTL_SECONDS", "1"));
    }
}
