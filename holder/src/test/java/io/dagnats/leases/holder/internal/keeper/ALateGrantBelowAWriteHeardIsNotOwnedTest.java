package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.protocol.Answers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * From the s35 review of ADR-046: dagnats' grant of a yes may come late (it is a core message,
 * published after the write is acknowledged), and by then the handed-over write may be gone: an
 * operator revoked it and another holder acquired the key. Its deadline from the yes has not
 * passed, so only the key's floor (the writes this process heard) tells it that the grant is no
 * tenure any more. Neither random model revokes, and no table row had a floor above the grant:
 * taking the floor check out of {@code KeeperRules.granted} failed no test before this one.
 */
class ALateGrantBelowAWriteHeardIsNotOwnedTest extends KeeperHarness {

    @Test
    void aGrantOfAHandedOverWriteThatWasRevokedAndTakenSinceIsDropped() {
        keeper.start();
        scheduler.runDue();
        answer("acquire", new Answers.Acquire.HeldByOther(others("old", 5, Duration.ofSeconds(10))));
        long yes = scheduler.nanoTime();
        keeper.submit(new KeeperEvent.Expecting()); // said yes to old's handover check
        keeper.keyChanged(change("handed-over", 20, SELF)); // written; the grant is late
        keeper.keyChanged(change("revoked", 21, SELF)); // an operator revokes it at once
        keeper.keyChanged(change("acquired", 22, Claimant.of(new HolderId("other")))); // and another takes the key
        scheduler.runDue();

        keeper.submit(new KeeperEvent.Granted(mine(20, 20), yes));
        scheduler.runDue();

        assertEquals(List.of(), told, "owned a write revoked and taken since");
        assertFalse(lease.isOwner());
    }

    @Test
    void theSameGrantWithNothingHeardSinceIsOwned() {
        keeper.start();
        scheduler.runDue();
        answer("acquire", new Answers.Acquire.HeldByOther(others("old", 5, Duration.ofSeconds(10))));
        long yes = scheduler.nanoTime();
        keeper.submit(new KeeperEvent.Expecting());
        keeper.keyChanged(change("handed-over", 20, SELF));
        scheduler.runDue();

        keeper.submit(new KeeperEvent.Granted(mine(20, 20), yes));
        scheduler.runDue();

        assertTrue(lease.isOwner(), told.toString());
        assertEquals(List.of("owner 20 20"), told);
    }
}
