package io.dagnats.leases.domain;

import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE;
import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE_ID;
import static io.dagnats.leases.domain.LeaseRuleExamples.KEY;
import static io.dagnats.leases.domain.LeaseRuleExamples.T0;
import static io.dagnats.leases.domain.LeaseRuleExamples.TTL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LeaseValuesTest {

    @ParameterizedTest
    @ValueSource(strings = {"a", "notify-leader", "shard_07", "A-Z_a-z_0-9"})
    void keysOfOneSubjectTokenAreAccepted(String value) {
        assertEquals(value, new LeaseKey(value).value());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a.b", "a*", ">", "a b", "ключ", "a\n", "$KV", "a/b"})
    void keysThatCouldChangeASubjectAreInvalid(String value) {
        assertThrows(InvalidLeaseInput.class, () -> new LeaseKey(value));
    }

    @Test
    void keyLengthIsBoundedAt128() {
        assertEquals(128, new LeaseKey("k".repeat(128)).value().length());
        InvalidLeaseInput tooLong = assertThrows(InvalidLeaseInput.class, () -> new LeaseKey("k".repeat(129)));
        assertTrue(tooLong.getMessage().contains("key"), tooLong.getMessage());
    }

    @Test
    void missingKeyOrHolderIsInvalid() {
        assertThrows(InvalidLeaseInput.class, () -> new LeaseKey(null));
        InvalidLeaseInput holder = assertThrows(InvalidLeaseInput.class, () -> new HolderId(null));
        assertEquals("holder is required", holder.getMessage());
    }

    @ParameterizedTest
    @ValueSource(longs = {1_000, 2_000, 15_000, 600_000})
    void ttlInWholeSecondsWithinBoundsIsAccepted(long millis) {
        assertEquals(millis / 1_000, new LeaseTtl(millis).seconds());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 999, 1_500, 600_001, 601_000, -1_000, Long.MAX_VALUE})
    void ttlOutsideBoundsOrNotWholeSecondsIsInvalid(long millis) {
        assertThrows(InvalidLeaseInput.class, () -> new LeaseTtl(millis));
    }

    @Test
    void fenceStartsAtOneAndOrdersByRevision() {
        assertThrows(InvalidLeaseInput.class, () -> new Fence(0));
        assertTrue(new Fence(41).isBelow(new Fence(42)));
        assertTrue(new Fence(42).compareTo(new Fence(41)) > 0);
    }

    @Test
    void fenceIsUnsignedOverAll64Bits() {
        Fence pastSignedRange = new Fence(Long.MIN_VALUE); // 2^63
        Fence largest = new Fence(-1); // 2^64-1
        assertTrue(new Fence(Long.MAX_VALUE).isBelow(pastSignedRange));
        assertTrue(pastSignedRange.isBelow(largest));
        assertEquals("9223372036854775808", pastSignedRange.toString());
        assertEquals("18446744073709551615", largest.toString());
    }

    @Test
    void invalidInputCarriesNoStackTrace() {
        InvalidLeaseInput invalid = assertThrows(InvalidLeaseInput.class, () -> new LeaseKey("a.b"));
        assertEquals(0, invalid.getStackTrace().length);
    }

    @Test
    void aLeaseCannotBeOlderThanItsTenure() {
        assertThrows(IllegalArgumentException.class,
                () -> new Lease(KEY, ALICE_ID, new Fence(3), new Fence(4), T0, T0, TTL));
    }

    @Test
    void aPutCannotRelease() {
        assertThrows(IllegalArgumentException.class, () -> new LeaseWrite.Put(
                KEY, 1, LeaseEvent.RELEASED, ALICE, T0, T0, TTL, Optional.empty()));
    }
}
