package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.nats.client.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A stray mode-off replica that saw an identity-mode bucket does not create it again. */
class StrayModeOffReplicaAcceptanceTest extends IdentityStartReplicas {

    /**
     * The review of F2, finding 2, in its deterministic form: a stray mode-off replica (dagnats' own
     * credentials, DAGNATS_IDENTITY unset) refuses an identity-mode deployment's bucket; the bucket is
     * deleted while no identity-mode replica runs. The stray replica must not create it again with the
     * mode off (the deployment would then serve with no caller checks): it refuses, and says why.
     */
    @Test
    void aStrayModeOffReplicaThatSawAnIdentityModeBucketDoesNotCreateItAgain() throws Exception {
        DagnatsServer identityMode = identityModeReplica();
        DagnatsServer strayModeOff = modeOffReplica();
        Polling.until(Duration.ofSeconds(20), "the stray replica to refuse the identity-mode bucket",
                strayModeOff::status, status -> status.describe().contains("dagnats.identity"));
        stop(identityMode);
        Connection admin = admin();
        admin.jetStreamManagement().deleteStream("KV_leases");

        Polling.until(Duration.ofSeconds(20), "the stray replica's look at the missing bucket",
                strayModeOff::status, status -> status.describe().contains("does not create it again"));
        assertTrue(!exists(admin), "the stray mode-off replica created the bucket: " + strayModeOff.status().describe());
        JsonNode reply = as("alice").owner("leader");
        assertEquals("unavailable", reply.path("kind").asText(), reply.toString());
    }
}
