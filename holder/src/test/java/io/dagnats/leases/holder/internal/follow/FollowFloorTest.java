package io.dagnats.leases.holder.internal.follow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
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
 * A follower in a holder that had confirmed fence 20 for the key reports no owner at or below it
 * (the store went back): the key is told free, once, until an owner above 20 appears.
 */
class FollowFloorTest {

    private static final LeaseKey KEY = new LeaseKey("k");
    private static final Claimant SELF = Claimant.of(new HolderId("me"), new Incarnation("run-1"));
    private static final Optional<Fence> FLOOR = Optional.of(new Fence(20));

    private final FollowRules rules = new FollowRules(KEY, Optional.of(SELF));
    private FollowState state = new FollowState.Idle();
    private FollowStep.Memory memory = FollowStep.Memory.FRESH;
    private long read;
    private final List<KeyOwner> told = new ArrayList<>();
    private final List<String> logs = new ArrayList<>();

    @Test
    void anOwnerBelowTheFloorIsToldAsFreeOnceUntilAnOwnerAboveItAppears() {
        step(new FollowEvent.Start());
        answer(held(Claimant.of(new HolderId("b")), 12, 14));
        step(new FollowEvent.Gap("NATS reconnected"));
        answer(held(Claimant.of(new HolderId("b")), 12, 15));
        step(new FollowEvent.Gap("NATS reconnected"));
        answer(held(Claimant.of(new HolderId("c")), 40, 41)); // dagnats moved the key's revisions past the old ones

        assertEquals(List.of(new KeyOwner.Free(KEY), owner(Claimant.of(new HolderId("c")), 40)), told);
        assertEquals(1, logs.size(), logs.toString());
        assertTrue(logs.get(0).contains("store went back"), logs.toString());
    }

    @Test
    void atTheFloorOnlyThisProcesssOwnRecordIsAnOwner() {
        step(new FollowEvent.Start());
        answer(held(SELF, 15, 20)); // the write this process confirmed, still current
        step(new FollowEvent.Gap("NATS reconnected"));
        answer(held(Claimant.of(new HolderId("b")), 20, 20)); // another's record at 20: handed out again

        assertEquals(List.of(owner(SELF, 15), new KeyOwner.Free(KEY)), told);
    }

    private void answer(Answers.Owner answer) {
        step(new FollowEvent.Read(read, answer));
    }

    private void step(FollowEvent event) {
        FollowStep step = rules.next(state, memory, event, 0, FLOOR);
        state = step.state();
        memory = step.memory();
        for (FollowEffect effect : step.effects()) {
            if (effect instanceof FollowEffect.SendRead send) {
                read = send.call();
            } else if (effect instanceof FollowEffect.Report report) {
                told.add(report.owner());
            } else if (effect instanceof FollowEffect.Log log) {
                logs.add(log.line());
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
