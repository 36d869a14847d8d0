package io.dagnats.leases.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    @Test
    void aForwardFencedAtOrAboveTheTenureStartIsAccepted() {
        Tenure renewed = tenure.renewed(new Fence(44), 110 * SECOND, TTL);

        assertEquals(Tenure.ForwardVerdict.ACCEPT, renewed.judgeForward("40", 111 * SECOND));
        assertEquals(Tenure.ForwardVerdict.ACCEPT, renewed.judgeForward("44", 111 * SECOND));
        assertEquals(Tenure.ForwardVerdict.ACCEPT, renewed.judgeForward("18446744073709551615", 111 * SECOND));
    }

    @Test
    void aForwardFencedBeforeTheTenureIsStale() {
        assertEquals(Tenure.ForwardVerdict.REJECT_STALE_FENCE, tenure.judgeForward("39", 101 * SECOND));
        assertEquals(Tenure.ForwardVerdict.REJECT_STALE_FENCE, tenure.judgeForward("0", 101 * SECOND));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-41", "+41", " 41", "41 ", "4.1e1", "0x29", "forty-one", "18446744073709551616"})
    void aMissingOrMalformedFenceIsRejected(String header) {
        assertEquals(Tenure.ForwardVerdict.REJECT_BAD_FENCE, tenure.judgeForward(header, 101 * SECOND));
    }

    @Test
    void anAbsentFenceIsRejected() {
        assertEquals(Tenure.ForwardVerdict.REJECT_BAD_FENCE, tenure.judgeForward(null, 101 * SECOND));
    }

    @Test
    void pastTheDeadlineEveryForwardIsRejectedWhateverItsFence() {
        assertEquals(Tenure.ForwardVerdict.REJECT_PAST_DEADLINE, tenure.judgeForward("40", 115 * SECOND));
        assertFalse(tenure.judgeForward("99", 200 * SECOND).accepted());
    }

    @Test
    void deadlinesSurviveTheMonotonicClockWrapping() {
        Tenure nearWrap = Tenure.begin(KEY, ME, new Fence(1), Long.MAX_VALUE - SECOND, TTL);
        assertTrue(nearWrap.actingAsOwner(Long.MAX_VALUE));
        assertFalse(nearWrap.actingAsOwner(Long.MAX_VALUE - SECOND + 15 * SECOND));
    }
}
