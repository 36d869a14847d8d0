package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When a waiter asks again by itself: the fallback's rules, on fixed clocks. */
class ExpiryFallbackTest {

    private static final long TTL = Duration.ofSeconds(15).toNanos();
    private static final Instant WALL = Instant.parse("2026-12-01T12:00:00Z");
    private static final Instant ACQUIRED = WALL.minusSeconds(60);

    private static LeaseView held(long revision, Duration untilExpiry) {
        return new LeaseView(new LeaseKey("k"), new HolderId("h"), new Fence(revision), ACQUIRED,
                WALL.plus(untilExpiry), new LeaseTtl(15_000));
    }

    private static long millis(ExpiryFallback.Wait wait) {
        return Duration.ofNanos(wait.nanos()).toMillis();
    }

    @Test
    void aHeldKeyIsAskedForJustAfterTheHoldersExpiryCappedAtTheWaitersTtl() {
        ExpiryFallback fallback = ExpiryFallback.NOTHING_LEARNT;

        assertEquals(10_100, millis(fallback.after(held(5, Duration.ofSeconds(10)), WALL, 0, TTL, 0)));
        assertEquals(15_000, millis(fallback.after(held(5, Duration.ofSeconds(60)), WALL, 0, TTL, 0)));
        assertEquals(150, millis(fallback.after(held(5, Duration.ofMillis(50)), WALL, 0, TTL, 7_000_000)) - 7);
    }

    @Test
    void anExpiryJustPastIsBelievedFourTimesThenTheWaitIsTwoThirdsOfTheTtl() {
        ExpiryFallback fallback = ExpiryFallback.NOTHING_LEARNT;
        for (int answer = 1; answer <= ExpiryFallback.ANSWERS_BELIEVED; answer++) {
            ExpiryFallback.Wait wait = fallback.after(held(5, Duration.ofMillis(-200)), WALL, 0, TTL, 0);
            assertEquals(50, millis(wait), "answer " + answer + " read 200 ms past: believed");
            fallback = wait.after();
        }
        assertEquals(10_000, millis(fallback.after(held(5, Duration.ofMillis(-200)), WALL, 0, TTL, 0)));
    }

    @Test
    void anExpiryTwoSecondsPastIsThisClockRunningAhead() {
        assertEquals(10_000, millis(ExpiryFallback.NOTHING_LEARNT.after(held(5, Duration.ofSeconds(-2)), WALL, 0, TTL, 0)));
    }

    @Test
    void aRenewalOfTheAcquisitionWhoseExpiryReadAsPastTeachesHowFarAheadThisClockRuns() {
        ExpiryFallback.Wait first = ExpiryFallback.NOTHING_LEARNT.after(held(5, Duration.ofMillis(-500)), WALL, 0, TTL, 0);
        long later = Duration.ofMillis(300).toNanos();

        ExpiryFallback.Wait second = first.after().after(held(6, Duration.ofMillis(-500)), WALL, later, TTL, 0);

        assertEquals(Duration.ofMillis(800).toNanos(), second.after().clockAheadNanos());
        assertEquals(400, millis(second), "the expiry read corrected by 800 ms: 300 ms ahead, plus 100");
    }

    /**
     * Issue 21: a store recovered after a crash brought back a lease long past its expiry, answered
     * again and again; then its holder got it back and renewed it (an older dagnats grants that). One
     * revision read past its expiry across more than its TTL is no live lease: its renewal is not
     * taken for this clock running ahead (before, the waiter learnt it ran minutes ahead).
     */
    @Test
    void aRenewalOfALeaseTheStoreForgotToExpireTeachesNothingAboutThisClock() {
        ExpiryFallback fallback = ExpiryFallback.NOTHING_LEARNT;
        long now = 0;
        for (int answer = 0; answer < 3; answer++) {
            fallback = fallback.after(held(5, Duration.ofMinutes(-14)), WALL.plusSeconds(10L * answer), now, TTL, 0)
                    .after();
            now += Duration.ofSeconds(10).toNanos();
        }

        ExpiryFallback renewed = fallback.after(held(6, Duration.ofSeconds(29)), WALL.plusSeconds(30), now, TTL, 0).after();

        assertEquals(0, renewed.clockAheadNanos());
    }

    @Test
    void anExpiryCenturiesAwayOrAgoIsReadAsFarAwayNotAsAnOverflow() {
        assertEquals(15_000, millis(ExpiryFallback.NOTHING_LEARNT.after(held(5, Duration.ofDays(365 * 400)), WALL, 0, TTL, 0)));
        assertEquals(10_000, millis(ExpiryFallback.NOTHING_LEARNT.after(held(5, Duration.ofDays(-365 * 400)), WALL, 0, TTL, 0)));
    }
}
