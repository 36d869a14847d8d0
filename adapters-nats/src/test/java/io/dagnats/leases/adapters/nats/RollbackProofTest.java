package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RollbackProofTest {

    private static final BucketIdentity BUCKET = BucketIdentity.of(Instant.parse("2026-12-01T00:00:00Z"), 1, Map.of());

    @Test
    void aRevisionAboveTheLastSequenceProvesTheStreamWentBack() {
        assertTrue(RollbackProof.proves(101, 100));
        assertTrue(RollbackProof.proves(100 + RollbackProof.BOUND, 100));
    }

    @Test
    void aRevisionAtOrBelowTheLastSequenceProvesNothing() {
        assertFalse(RollbackProof.proves(100, 100));
        assertFalse(RollbackProof.proves(7, 100));
    }

    @Test
    void aRevisionMoreThanABillionAboveIsNotARollback() {
        assertFalse(RollbackProof.proves(101 + RollbackProof.BOUND, 100));
        assertThrows(IllegalArgumentException.class,
                () -> new RollbackProof(BUCKET, new LeaseKey("k"), 1_000_000_000_000L, 100, Optional.empty()));
    }

    @Test
    void fencesResumeABillionAboveThePresentedRevisionOrAnyConfirmedHigher() {
        RollbackProof proof = new RollbackProof(BUCKET, new LeaseKey("k1"), 500, 100, Optional.empty());
        assertEquals(500 + 1 + RollbackProof.BOUND, proof.skipTo(300));
        assertEquals(900 + 1 + RollbackProof.BOUND, proof.skipTo(900));
        assertTrue(proof.evidence().contains("k1") && proof.evidence().contains("500") && proof.evidence().contains("100"),
                proof.evidence());
    }

    @Test
    void theGraceIsTheLongestTtlPresentOrPresentedPlusItsMarginAndTheClockBound() {
        // 30 s + 1 % + 100 ms + 1 s
        assertEquals(Duration.ofMillis(31_400), FenceSkip.grace(Optional.of(Duration.ofSeconds(30)),
                Optional.of(LeaseTtl.ofSeconds(3))));
        assertEquals(Duration.ofMillis(4_130), FenceSkip.grace(Optional.empty(), Optional.of(LeaseTtl.ofSeconds(3))));
        // Nothing known: the shortest lease; never longer than the contract's longest.
        assertEquals(Duration.ofMillis(2_110), FenceSkip.grace(Optional.empty(), Optional.empty()));
        assertEquals(Duration.ofMillis(607_100), FenceSkip.grace(Optional.of(Duration.ofDays(1)), Optional.empty()));
    }
}
