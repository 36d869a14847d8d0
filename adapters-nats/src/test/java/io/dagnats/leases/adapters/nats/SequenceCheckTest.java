package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which sequences an answer may carry and still come from the bucket judged ready (ADR-026 rule 4). */
class SequenceCheckTest {

    private static final long FIRST = 1_796_000_000_000_000L;
    private static final BucketIdentity IDENTITY = BucketIdentity.of(Instant.parse("2026-11-30T12:00:00Z"), FIRST,
            Map.of(BucketIdentity.FENCES_METADATA, Long.toString(FIRST)));

    @Test
    void aFirstWriteIntoAFreshBucketIsItsOwn() {
        SequenceCheck check = new SequenceCheck(IDENTITY, 0);

        assertEquals(FIRST - 1, check.highest());
        assertEquals(Optional.empty(), check.problem(FIRST));
        assertEquals(FIRST, check.highest());
    }

    @Test
    void aSequenceBelowTheFirstComesFromAnotherBucket() {
        SequenceCheck check = new SequenceCheck(IDENTITY, FIRST + 10);

        Optional<String> problem = check.problem(FIRST - 1);

        assertTrue(problem.isPresent());
        assertTrue(problem.get().contains("below the bucket's first sequence"), problem.get());
    }

    /** A replacement dagnats made starts at least 10^9 above every sequence its creator saw. */
    @Test
    void aSequenceFarAboveTheHighestConfirmedComesFromAnotherBucket() {
        SequenceCheck check = new SequenceCheck(IDENTITY, FIRST + 10);
        long replacement = FIRST + 10 + 1 + BucketHistory.UNSEEN_WRITES;

        Optional<String> problem = check.problem(replacement);

        assertTrue(problem.isPresent());
        assertTrue(problem.get().contains("another bucket"), problem.get());
        assertEquals(FIRST + 10, check.highest(), "a foreign sequence is not counted");
        assertTrue(check.problem(FIRST + 10 + SequenceCheck.FOREIGN_ABOVE + 1).isPresent());
        assertEquals(Optional.empty(), check.problem(FIRST + 10 + SequenceCheck.FOREIGN_ABOVE));
    }

    @Test
    void everyAcceptedSequenceAndLookRaisesTheHighestConfirmed() {
        SequenceCheck check = new SequenceCheck(IDENTITY, FIRST + 10);

        check.problem(FIRST + 400_000_000L);
        assertEquals(Optional.empty(), check.problem(FIRST + 800_000_000L), "within reach of the one before");
        check.confirmed(FIRST + 1_200_000_000L);
        assertEquals(FIRST + 1_200_000_000L, check.highest());
        check.confirmed(FIRST + 5);
        assertEquals(FIRST + 1_200_000_000L, check.highest(), "never lowered");
    }

    /** A write sent after a sequence was confirmed in the stream gets a higher one, unless the stream went back. */
    @Test
    void aWriteAcknowledgedAtOrBelowWhatWasConfirmedWhenItWasSentProvesARollback() {
        SequenceCheck check = new SequenceCheck(IDENTITY, FIRST + 100);
        long atSend = check.highest();

        assertEquals(Optional.empty(), check.rollback(FIRST + 101, atSend));
        Optional<String> rollback = check.rollback(FIRST + 100, atSend);
        assertTrue(rollback.isPresent());
        assertTrue(rollback.get().contains("acknowledged at " + (FIRST + 100)), rollback.get());
        assertTrue(check.rollback(FIRST + 60, atSend).isPresent());
    }

    /** Concurrent writes' acks arrive in any order: only what was confirmed before a write was sent counts. */
    @Test
    void anAckBelowOneConfirmedAfterTheWriteWasSentIsNoRollback() {
        SequenceCheck check = new SequenceCheck(IDENTITY, FIRST + 100);
        long atSend = check.highest();
        check.problem(FIRST + 102);

        assertEquals(Optional.empty(), check.rollback(FIRST + 101, atSend));
    }
}
