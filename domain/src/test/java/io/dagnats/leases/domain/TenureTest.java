package io.dagnats.leases.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TenureTest {

    private static final LeaseKey KEY = new LeaseKey("shard-7");
    private static final HolderId ME = new HolderId("worker-1a2b");
    private static final LeaseTtl TTL = LeaseTtl.ofSeconds(15);
    private static final long SECOND = 1_000_000_000L;

    private final Tenure tenure = Tenure.begin(KEY, ME, new Fence(40), 100 * SECOND, TTL);

    /** 15 s less the margin: 1 % of the TTL (150 ms) and 100 ms. */
    private static final long MARGIN = 250_000_000L;

    @Test
    void theDeadlineIsTtlLessTheSafetyMarginAfterTheWriteWasSent() {
        assertEquals(MARGIN, Tenure.safetyMargin(TTL).toNanos());
        assertTrue(tenure.actingAsOwner(115 * SECOND - MARGIN - 1));
        assertFalse(tenure.actingAsOwner(115 * SECOND - MARGIN));
        assertEquals(SECOND - MARGIN, tenure.nanosLeft(114 * SECOND));
    }

    @Test
    void theSafetyMarginGrowsWithTheTtl() {
        assertEquals(110, Tenure.safetyMargin(LeaseTtl.ofSeconds(1)).toMillis());
        assertEquals(6_100, Tenure.safetyMargin(LeaseTtl.ofSeconds(600)).toMillis());
    }

    @Test
    void aRenewMovesTheDeadlineAndTheFenceButNotTheStart() {
        Tenure renewed = tenure.renewed(new Fence(44), 110 * SECOND, TTL);

        assertEquals(new Fence(40), renewed.start());
        assertEquals(new Fence(44), renewed.fence());
        assertTrue(renewed.actingAsOwner(125 * SECOND - MARGIN - 1));
        assertFalse(renewed.actingAsOwner(125 * SECOND - MARGIN));
    }

    @Test
    void aRenewCannotLowerTheFence() {
        assertThrows(IllegalArgumentException.class, () -> tenure.renewed(new Fence(39), 110 * SECOND, TTL));
    }

    /**
     * The owner-side rule for one forwarded request, as a table: a tenure that
     * began at {@code start} with its acquire sent at 100 s and a 15 s TTL
     * (deadline 115 s), renewed at 110 s to fence {@code start + 4} (deadline
     * 125 s), judging the presented {@code fence} (unsigned) at {@code nowSeconds}.
     * How a header becomes a fence is the protocol's table ({@code LeaseHeadersTest}).
     */
    @ParameterizedTest(name = "start {0}, fence {1} at {2} s: {3}")
    @CsvSource(nullValues = "<absent>", textBlock = """
            # start,               fence,                   now, verdict
            # at the start and above, up to the largest unsigned 64-bit value
            40,                    40,                      111, ACCEPT
            40,                    41,                      111, ACCEPT
            40,                    44,                      111, ACCEPT
            40,                    45,                      111, ACCEPT
            40,                    9223372036854775807,     111, ACCEPT
            40,                    9223372036854775808,     111, ACCEPT
            40,                    18446744073709551615,    111, ACCEPT
            # compared unsigned: past 2^63-1 is above the highest signed start
            9223372036854775803,   9223372036854775803,     111, ACCEPT
            9223372036854775803,   9223372036854775808,     111, ACCEPT
            9223372036854775803,   18446744073709551615,    111, ACCEPT
            9223372036854775803,   9223372036854775802,     111, REJECT_STALE_FENCE
            # below the tenure start: a fence from an earlier tenure
            40,                    39,                      111, REJECT_STALE_FENCE
            40,                    1,                       111, REJECT_STALE_FENCE
            # no fence (or none that reads as one)
            40,                    <absent>,                111, REJECT_BAD_FENCE
            # the deadline: accepted just before it, rejected at and after it, whatever the fence
            40,                    44,                      124, ACCEPT
            40,                    44,                      125, REJECT_PAST_DEADLINE
            40,                    44,                      126, REJECT_PAST_DEADLINE
            40,                    18446744073709551615,    125, REJECT_PAST_DEADLINE
            40,                    39,                      125, REJECT_PAST_DEADLINE
            40,                    <absent>,                200, REJECT_PAST_DEADLINE
            """)
    void aForwardIsJudgedByTheTenure(long start, String fence, long nowSeconds, Tenure.ForwardVerdict verdict) {
        Tenure renewed = Tenure.begin(KEY, ME, new Fence(start), 100 * SECOND, TTL)
                .renewed(new Fence(start + 4), 110 * SECOND, TTL);
        Optional<Fence> presented = Optional.ofNullable(fence).map(text -> new Fence(Long.parseUnsignedLong(text)));

        assertEquals(verdict, renewed.judgeForward(presented, nowSeconds * SECOND));
        assertEquals(verdict == Tenure.ForwardVerdict.ACCEPT,
                renewed.judgeForward(presented, nowSeconds * SECOND).accepted());
    }

    @Test
    void anUnrenewedTenureRejectsAtItsOwnDeadline() {
        assertEquals(Tenure.ForwardVerdict.ACCEPT, tenure.judgeForward(Optional.of(new Fence(40)), 114 * SECOND));
        assertEquals(Tenure.ForwardVerdict.REJECT_PAST_DEADLINE,
                tenure.judgeForward(Optional.of(new Fence(40)), 115 * SECOND));
    }

    @Test
    void deadlinesSurviveTheMonotonicClockWrapping() {
        Tenure nearWrap = Tenure.begin(KEY, ME, new Fence(1), Long.MAX_VALUE - SECOND, TTL);
        assertTrue(nearWrap.actingAsOwner(Long.MAX_VALUE));
        assertFalse(nearWrap.actingAsOwner(Long.MAX_VALUE - SECOND + 15 * SECOND));
    }
}
