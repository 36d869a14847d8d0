package io.dagnats.leases.holder.internal.follow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseChange;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * When a follower reads the key again by itself, with no event to go on: just after a held lease
 * surely expired, after a quiet spell, and after failed reads, backing off.
 */
class FollowRulesRereadTest extends FollowRulesHarness {

    @Test
    void withTheExpiryEventLostTheFollowerReadsJustAfterTheLeaseSurelyExpired() {
        start();
        answer(held("a", 20, 20));
        FollowEffect.Schedule check = lastTimer();
        assertEquals(TTL.toNanos() + FollowRules.AFTER_EXPIRY_NANOS, check.delayNanos());

        now += check.delayNanos();
        step(check.event());
        assertEquals(2, reads.size());
        answer(new Answers.Owner.Free(KEY));

        assertEquals(List.of(held("a", 20), free()), told);
    }

    @Test
    void aLeaseStillHeldAfterItSurelyExpiredIsReadAgainSoon() {
        start();
        answer(held("a", 10, 12));
        now += lastTimer().delayNanos();
        step(lastTimer().event());
        answer(held("a", 10, 12)); // the same write: the server is late to expire it

        assertEquals(FollowRules.PAST_EXPIRY_NANOS, lastTimer().delayNanos());
    }

    @Test
    void aFreeKeyIsReadAgainAfterAQuietSpell() {
        start();
        answer(new Answers.Owner.Free(KEY));

        assertEquals(FollowRules.QUIET_NANOS, lastTimer().delayNanos());
    }

    @Test
    void whileReadsFailAnExpiryThatFollowsIsStillToldAndTheReadIsRetried() {
        start();
        answer(held("a", 10, 12));
        step(new FollowEvent.Gap("NATS reconnected"));
        step(new FollowEvent.ReadFailed(reads.get(1), Optional.empty()));
        assertInstanceOf(FollowState.Pausing.class, state);
        assertEquals(FollowRules.FIRST_RETRY_NANOS, lastTimer().delayNanos());

        hear(event(LeaseChange.Kind.EXPIRED, 13, 12, null));
        assertEquals(List.of(held("a", 10), free()), told);

        step(lastTimer().event());
        assertEquals(3, reads.size());
    }

    @Test
    void retriesBackOffToFiveSeconds() {
        assertEquals(FollowRules.FIRST_RETRY_NANOS * 2, FollowRules.retryDelay(2));
        assertEquals(FollowRules.LAST_RETRY_NANOS, FollowRules.retryDelay(50));
    }
}
