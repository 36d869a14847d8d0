package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Review (not a fix): a standby that waits in a loop of short awaitOwnership calls while another
 * holder keeps the key sees no confirm and no end, so each timed-out wait leaves the relay of its
 * CompletableFuture.anyOf on the keeper's closed stage (and on the pending change stage), for as
 * long as the lease lives.
 */
class AwaitOwnershipLeakTest extends KeeperHarness {

    @Test
    void timedOutWaitsLeaveNothingOnTheLeasesStages() throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            assertTrue(lease.awaitOwnership(Duration.ofMillis(1)).isEmpty());
        }

        assertEquals(0, keeper.closedStage().getNumberOfDependents(),
                "every timed-out wait is still registered on the lease's closed stage");
    }
}
