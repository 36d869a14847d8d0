package io.dagnats.leases.holder.internal.follow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * After a rollback that no skip followed (no proof reached dagnats while the stream's last sequence
 * was below the lost revision: a busy bucket reissues the lost sequences within moments, or the old
 * owner died with the server), a real new owner's tenure may repeat an old one. It is reported once
 * its record is above every record read of an owner reported, rather than the key being reported
 * free for its whole tenure.
 */
class FollowAfterRollbackWithoutSkipTest extends FollowRulesHarness {

    @Test
    void aRealOwnerAtARepeatedTenureIsReportedOnceItsRecordIsAboveEveryFenceSeen() {
        start();
        answer(held("b", 30, 31));
        // The store goes back to 24; c is granted at 25 and renews on, far past everything seen.
        for (long revision : new long[] {26, 200, 5_000, 1_000_000}) {
            step(new FollowEvent.Gap("NATS reconnected"));
            answer(held("c", 25, revision));
        }

        assertEquals(held("c", 25), told.get(told.size() - 1), "told: " + told);
    }

    /**
     * The rule is "above every record read of an owner reported": not only the record at which each
     * owner was first reported counts, its renewals read since do too. Here b is reported at 31 and
     * read renewing to 5 000 (its holder believes it owns); after the store goes back, c at tenure
     * 25 must not be reported while every record of c is below b's 5 000.
     */
    @Test
    void aRepeatedTenureIsNotReportedWhileItsRecordIsBelowARenewalReadOfTheOwnerReported() {
        start();
        answer(held("b", 30, 31));
        for (long revision : new long[] {200, 5_000}) {
            step(new FollowEvent.Gap("NATS reconnected"));
            answer(held("b", 30, revision));
        }
        step(new FollowEvent.Gap("NATS reconnected"));
        answer(held("c", 25, 32));

        assertEquals(List.of(held("b", 30), free()), told, "told: " + told);
    }
}
