package io.dagnats.leases.holder;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A candidacy is refused when it is set, never later when a candidate answer is written. */
class KeepOptionsTest {

    @Test
    void aVersionTheWireRefusesIsRefusedWhenTheCandidacyIsSet() {
        assertThrows(IllegalArgumentException.class, () -> KeepOptions.defaults().candidacy(0, "2.4.1-é"));
        assertThrows(IllegalArgumentException.class, () -> KeepOptions.defaults().candidacy(0, "2.4\t1"));
        assertThrows(IllegalArgumentException.class, () -> KeepOptions.defaults().candidacy(0, "v".repeat(257)));
    }

    @Test
    void anyPrintableAsciiVersionTheWireCarriesIsAccepted() {
        assertDoesNotThrow(() -> KeepOptions.defaults().candidacy(0, ""));
        assertDoesNotThrow(() -> KeepOptions.defaults().candidacy(0, "release \"2\" \\ build~7"));
        assertDoesNotThrow(() -> KeepOptions.defaults().candidacy(0, "v".repeat(256)));
    }
}
