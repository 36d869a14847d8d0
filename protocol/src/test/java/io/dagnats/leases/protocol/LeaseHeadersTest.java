package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Tenure;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The fence header: its syntax here, and the owner-side rule it feeds. */
class LeaseHeadersTest {

    private static final long SECOND = 1_000_000_000L;

    @ParameterizedTest(name = "[{0}] is {1}")
    @CsvSource(nullValues = "<none>", textBlock = """
            1,                      1
            40,                     40
            9223372036854775807,    9223372036854775807
            9223372036854775808,    9223372036854775808
            18446744073709551615,   18446744073709551615
            00000000000000000007,   7
            00000000000000000040,   40
            0,                      <none>
            00000000000000000000,   <none>
            18446744073709551616,   <none>
            184467440737095516150,  <none>
            99999999999999999999,   <none>
            000000000000000000040,  <none>
            -1,                     <none>
            -40,                    <none>
            +40,                    <none>
            '',                     <none>
            forty,                  <none>
            4.0e1,                  <none>
            0x28,                   <none>
            40a,                    <none>
            ' 40',                  <none>
            '40 ',                  <none>
            '4 0',                  <none>
            \u0664\u0660,           <none>
            """)
    void aFenceHeaderIsAnUnsigned64BitIntegerOfOneOrMore(String header, String fence) {
        assertEquals(Optional.ofNullable(fence).map(text -> new Fence(Long.parseUnsignedLong(text))),
                LeaseHeaders.parseFence(header));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "42", "9223372036854775807", "9223372036854775808", "18446744073709551615"})
    void aFenceIsFormattedAsItIsParsed(String header) {
        assertEquals(header, LeaseHeaders.formatFence(LeaseHeaders.parseFence(header).orElseThrow()));
    }

    /**
     * The owner-side rule from header to verdict: a tenure that began at 40 (or
     * just under 2^63) and was renewed to start + 4, judged while acting as owner.
     */
    @ParameterizedTest(name = "start {0}, header [{1}]: {2}")
    @CsvSource(nullValues = "<absent>", textBlock = """
            40,                    40,                      ACCEPT
            40,                    44,                      ACCEPT
            40,                    9223372036854775808,     ACCEPT
            40,                    18446744073709551615,    ACCEPT
            9223372036854775803,   9223372036854775808,     ACCEPT
            9223372036854775803,   18446744073709551615,    ACCEPT
            9223372036854775803,   9223372036854775802,     REJECT_STALE_FENCE
            40,                    39,                      REJECT_STALE_FENCE
            40,                    0,                       REJECT_BAD_FENCE
            40,                    <absent>,                REJECT_BAD_FENCE
            40,                    18446744073709551616,    REJECT_BAD_FENCE
            40,                    -40,                     REJECT_BAD_FENCE
            """)
    void theOwnerJudgesTheHeaderItReceived(long start, String header, Tenure.ForwardVerdict verdict) {
        Tenure tenure = Tenure.begin(new LeaseKey("k"), new HolderId("h"), new Fence(start), 100 * SECOND,
                        LeaseTtl.ofSeconds(15))
                .renewed(new Fence(start + 4), 110 * SECOND, LeaseTtl.ofSeconds(15));
        assertEquals(verdict, tenure.judgeForward(LeaseHeaders.parseFence(header), 111 * SECOND));
    }
}
