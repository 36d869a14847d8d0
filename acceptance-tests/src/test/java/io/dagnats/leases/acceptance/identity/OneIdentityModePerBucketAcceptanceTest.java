package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.IdentityNats;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A bucket serves one identity mode (ADR-036, amended): the mode decides how keys are named in
 * it ({@code $KV.leases.<key>} or {@code $KV.leases.<account>.<key>}) and whether callers are
 * checked at all, so replicas of both modes on one bucket and queue group would answer the same
 * application lease as two leases, one of them unchecked. The bucket records its mode
 * ({@code dagnats.identity}); a replica of the other mode refuses to serve it. On the multi-account
 * server of docs/examples/identity.conf, one server per test (each test's bucket is its own).
 */
class OneIdentityModePerBucketAcceptanceTest extends IdentityModeReplicas {

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
}
