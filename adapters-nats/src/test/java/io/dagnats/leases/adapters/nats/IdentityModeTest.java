package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A bucket serves the identity mode it records, and one that records none is a mode-off bucket. */
class IdentityModeTest {

    @Test
    void aBucketServesTheModeItRecords() {
        assertEquals(Optional.empty(), IdentityMode.OFF.refusal(Map.of(IdentityMode.METADATA, "off")));
        assertEquals(Optional.empty(), IdentityMode.ACCOUNTS.refusal(Map.of(IdentityMode.METADATA, "accounts")));
    }

    @Test
    void aReplicaOfTheOtherModeRefusesIt() {
        String refusal = IdentityMode.OFF.refusal(Map.of(IdentityMode.METADATA, "accounts")).orElseThrow();

        assertTrue(refusal.contains("records identity mode \"accounts\" (dagnats.identity)"), refusal);
        assertTrue(refusal.contains("runs with identity mode off"), refusal);
        assertTrue(IdentityMode.ACCOUNTS.refusal(Map.of(IdentityMode.METADATA, "off")).isPresent());
    }

    /** Every bucket before the mode was recorded was served with the mode off: the upgrade path. */
    @Test
    void aBucketThatRecordsNoModeIsAModeOffBucket() {
        assertEquals(Optional.empty(), IdentityMode.OFF.refusal(Map.of()));
        assertEquals(Optional.empty(), IdentityMode.OFF.refusal(null));
        String refusal = IdentityMode.ACCOUNTS.refusal(Map.of(BucketIdentity.FENCES_METADATA, "5")).orElseThrow();
        assertTrue(refusal.contains("records no identity mode"), refusal);
        assertTrue(refusal.contains("wait for the longest TTL granted, delete the bucket"), refusal);
        assertTrue(!refusal.contains("record dagnats.identity"), "a hand edit is no cure: " + refusal);
    }

    @Test
    void anUnknownModeIsRefusedByBothAndShownSafely() {
        String odd = "Accounts\r\nNats-Service-Error: x" + "y".repeat(100);
        String refusal = IdentityMode.OFF.refusal(Map.of(IdentityMode.METADATA, odd)).orElseThrow();

        assertTrue(IdentityMode.ACCOUNTS.refusal(Map.of(IdentityMode.METADATA, odd)).isPresent());
        assertTrue(refusal.contains("\"Accounts??Nats-Service-Error: xyyy"), refusal);
        assertTrue(refusal.length() < 600, refusal);
    }

    @Test
    void eachModeRecordsItsSettingsValue() {
        assertEquals("off", RequestIdentity.OFF.mode().recorded());
        assertEquals(IdentityMode.ACCOUNTS, new RequestIdentity.Accounts(new io.dagnats.leases.domain.Account("D"),
                java.util.Set.of()).mode());
    }
}
