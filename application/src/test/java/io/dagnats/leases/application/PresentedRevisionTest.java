package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import org.junit.jupiter.api.Test;

class PresentedRevisionTest {

    @Test
    void onlyALostAnswerReadBelowThePresentedRevisionIsCheckedAgainstTheStore() {
        assertTrue(PresentedRevision.showedBelow(0, new Fence(42)), "a key whose last message is gone");
        assertTrue(PresentedRevision.showedBelow(41, new Fence(42)), "a key below what its holder was issued");
        assertFalse(PresentedRevision.showedBelow(42, new Fence(42)));
        assertFalse(PresentedRevision.showedBelow(43, new Fence(42)), "another write since: the usual lost");
    }

    @Test
    void aKeyTheCallerStillHoldsProvesNothing() {
        assertFalse(PresentedRevision.heldBy(new KeyState.Free(new LeaseKey("k"), 0), Claimant.of(new HolderId("a"))));
    }
}
