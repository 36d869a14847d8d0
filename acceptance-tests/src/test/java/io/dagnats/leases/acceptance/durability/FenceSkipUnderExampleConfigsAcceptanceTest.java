package io.dagnats.leases.acceptance.durability;

import io.dagnats.leases.acceptance.harness.DagnatsWarnings;
import io.dagnats.leases.acceptance.harness.ExampleConfig;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Fences resume above a store that went back (ADR-037) where people follow the docs: under each
 * shipped example configuration, dagnats' own user records the grace end
 * ({@code $JS.API.STREAM.UPDATE.KV_leases}) and purges the stream above every old revision
 * ({@code $JS.API.STREAM.PURGE.KV_leases}). Without either permission the skip fails, and k1 comes
 * back at a revision the rolled-back stream repeats: the play's last assertion fails.
 */
class FenceSkipUnderExampleConfigsAcceptanceTest {

    @ParameterizedTest
    @EnumSource(ExampleConfig.class)
    void aRevisionAboveTheRolledBackStreamIsLostAndTheKeyComesBackAboveItAfterAGrace(ExampleConfig example)
            throws Exception {
        try (NatsServerProcess nats = example.start();
                DagnatsWarnings log = DagnatsWarnings.capture()) {
            RollbackPlay.wentBackAndResumesAbove(new RollbackPlay.Setup(nats,
                    () -> example.dagnats(nats, Map.of("DAGNATS_MARKER_TTL_SECONDS", "1")),
                    () -> example.holder(nats), () -> example.admin(nats)), log);
        }
    }
}
