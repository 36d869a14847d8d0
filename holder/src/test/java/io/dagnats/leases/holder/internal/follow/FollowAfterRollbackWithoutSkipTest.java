package io.dagnats.leases.holder.internal.follow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.holder.KeyOwner;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * After a rollback that no skip followed (no proof reached dagnats while the stream's last sequence
 * was below the lost revision: a busy bucket reissues the lost sequences within moments, or the old
 * owner died with the server), a real new owner's tenure may repeat an old one. It is reported once
 * its record is above every record read of an owner reported, rather than the key being reported
 * free for its whole tenure.
 */
class FollowAfterRollbackWithoutSkipTest {

    private static final LeaseKey KEY = new LeaseKey("k");
    private static final Claimant B = Claimant.of(new HolderId("b"));
    private static final Claimant C = Claimant.of(new HolderId("c"));

    private final FollowRules rules = new FollowRules(KEY);
    private FollowState state = new FollowState.Idle();
    private FollowStep.Memory memory = FollowStep.Memory.FRESH;
    private long read;
    private final List<KeyOwner> told = new ArrayList<>();

    @Test
    void aRealOwnerAtARepeatedTenureIsReportedOnceItsRecordIsAboveEveryFenceSeen() {
        step(new FollowEvent.Start());
        answer(held(B, 30, 31));
        // The store goes back to 24; c is granted at 25 and renews on, far past everything seen.
        for (long revision : new long[] {26, 200, 5_000, 1_000_000}) {
            step(new FollowEvent.Gap("NATS reconnected"));
            answer(held(C, 25, revision));
        }

        assertEquals(owner(C, 25), told.get(told.size() - 1), "told: " + told);
    }

    /**
     * The rule is "above every record read of an owner reported": not only the record at
     * which each owner was first reported counts; its renewals read since do not. Here b is reported at
     * 31 and read renewing to 5 000 (its holder believes it owns); after the store goes back, c at
     * tenure 25 is reported as soon as its record passes 31, while every record of c is below b's 5 000.
     */
    @Test
    void aRepeatedTenureIsNotReportedWhileItsRecordIsBelowARenewalReadOfTheOwnerReported() {
        step(new FollowEvent.Start());
        answer(held(B, 30, 31));
        for (long revision : new long[] {200, 5_000}) {
            step(new FollowEvent.Gap("NATS reconnected"));
            answer(held(B, 30, revision));
        }
        step(new FollowEvent.Gap("NATS reconnected"));
        answer(held(C, 25, 32));

        assertEquals(List.of(owner(B, 30), new KeyOwner.Free(KEY)), told, "told: " + told);
    }

    private void answer(Answers.Owner answer) {
        step(new FollowEvent.Read(read, answer));
    }

    private void step(FollowEvent event) {
        FollowStep step = rules.next(state, memory, event, 0, Optional.empty());
        state = step.state();
        memory = step.memory();
        for (FollowEffect effect : step.effects()) {
            if (effect instanceof FollowEffect.SendRead send) {
                read = send.call();
            } else if (effect instanceof FollowEffect.Report report) {
                told.add(report.owner());
            }
        }
    }

    private static Answers.Owner held(Claimant by, long tenure, long revision) {
        return new Answers.Owner.Held(new LeaseView(KEY, by.holder(), by.incarnation(), new Fence(revision),
                Optional.of(new Fence(tenure)), Instant.EPOCH, Instant.EPOCH, new LeaseTtl(2_000)));
    }

    private static KeyOwner owner(Claimant by, long tenure) {
        return new KeyOwner.Held(KEY, by.holder(), by.incarnation(), new Fence(tenure));
    }
}
