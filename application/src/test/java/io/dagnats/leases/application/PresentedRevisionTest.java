package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import java.time.Instant;
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
    void aKeyALiveLeaseHoldsProvesNothingWhoeverHoldsIt() {
        LeaseKey key = new LeaseKey("k");
        Instant now = Instant.parse("2026-12-04T08:00:00Z");
        for (String holder : new String[] {"a", "b"}) {
            Lease lease = new Lease(key, new HolderId(holder), new Fence(41), new Fence(41), now, now,
                    new LeaseTtl(10_000));
            assertFalse(PresentedRevision.showedBelow(PresentedRevision.comparable(new KeyState.Held(lease)),
                    new Fence(1_000)), "a renew above " + holder + "'s live lease is the guide's stale renew");
        }
        assertTrue(PresentedRevision.showedBelow(PresentedRevision.comparable(new KeyState.Free(key, 41)),
                new Fence(1_000)), "a free key below the presented revision is checked");
    }
}
