package io.dagnats.leases.protocol;

import static io.dagnats.leases.protocol.RequestExamples.HOLDER;
import static io.dagnats.leases.protocol.RequestExamples.KEY;
import static io.dagnats.leases.protocol.RequestExamples.RUN;
import static io.dagnats.leases.protocol.WireText.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.RevokeReason;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The contract's request table, row by row: what each operation accepts, and the request it decodes to. */
class RequestDecodingTest {

    static Stream<Arguments> validBodies() {
        return Stream.of(
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000}",
                        new Request.Acquire(KEY, HOLDER, LeaseTtl.ofSeconds(15))),
                Arguments.of(Operation.ACQUIRE, "{\"ttl_ms\":1000,\"holder\":\"h\",\"key\":\"k\"}",
                        new Request.Acquire(KEY, HOLDER, LeaseTtl.ofSeconds(1))),
                Arguments.of(Operation.ACQUIRE, " {\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":600000} \n",
                        new Request.Acquire(KEY, HOLDER, LeaseTtl.ofSeconds(600))),
                // Fields another operation needs are accepted and ignored when well typed.
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000,\"revision\":3,"
                                + "\"payload\":\"\",\"timeout_ms\":1}",
                        new Request.Acquire(KEY, HOLDER, LeaseTtl.ofSeconds(15))),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":42}",
                        new Request.Renew(KEY, HOLDER, new Fence(42), Optional.empty())),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":42,\"ttl_ms\":60000}",
                        new Request.Renew(KEY, HOLDER, new Fence(42), Optional.of(LeaseTtl.ofSeconds(60)))),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":9223372036854775807}",
                        new Request.Renew(KEY, HOLDER, new Fence(Long.MAX_VALUE), Optional.empty())),
                Arguments.of(Operation.RELEASE, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":1}",
                        new Request.Release(KEY, HOLDER, new Fence(1))),
                // An incarnation on the three calls a holder makes about its own lease...
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"run-1\",\"ttl_ms\":15000}",
                        new Request.Acquire(KEY, HOLDER, Optional.of(RUN), LeaseTtl.ofSeconds(15))),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"run-1\",\"revision\":42}",
                        new Request.Renew(KEY, HOLDER, Optional.of(RUN), new Fence(42), Optional.empty())),
                Arguments.of(Operation.RELEASE, "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"run-1\",\"revision\":7}",
                        new Request.Release(KEY, HOLDER, Optional.of(RUN), new Fence(7))),
                // ...and accepted and ignored on the others, like every field of the table.
                Arguments.of(Operation.OWNER, "{\"key\":\"k\",\"incarnation\":\"run-1\"}", new Request.Owner(KEY)),
                // The guide's own Go example sends ttl_ms on release.
                Arguments.of(Operation.RELEASE, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":7,\"ttl_ms\":15000}",
                        new Request.Release(KEY, HOLDER, new Fence(7))),
                // Ignored fields are not judged by the rules of the operation that needs them.
                Arguments.of(Operation.RELEASE, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":7,\"ttl_ms\":1500}",
                        new Request.Release(KEY, HOLDER, new Fence(7))),
                Arguments.of(Operation.OWNER, "{\"key\":\"k\"}", new Request.Owner(KEY)),
                Arguments.of(Operation.OWNER, "{\"key\":\"k\",\"holder\":\"someone\",\"revision\":5}",
                        new Request.Owner(KEY)),
                Arguments.of(Operation.OWNER, "{\"key\":\"" + "k".repeat(128) + "\"}",
                        new Request.Owner(new LeaseKey("k".repeat(128)))),
                Arguments.of(Operation.OWNER, "{\"key\":\"A-z_0-9\"}", new Request.Owner(new LeaseKey("A-z_0-9"))),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"stuck after a GC pause\"}",
                        new Request.Revoke(KEY, new RevokeReason("stuck after a GC pause"), Optional.empty())),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"r\",\"revision\":42}",
                        new Request.Revoke(KEY, new RevokeReason("r"), Optional.of(new Fence(42)))),
                // The lease table's other fields are accepted and ignored on revoke too.
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"r\",\"holder\":\"h\",\"ttl_ms\":1500,"
                                + "\"payload\":\"\",\"timeout_ms\":1,\"prefix\":\"\",\"page_size\":0,\"cursor\":\"\"}",
                        new Request.Revoke(KEY, new RevokeReason("r"), Optional.empty())),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"" + "~ !".repeat(66) + "x\"}",
                        new Request.Revoke(KEY, new RevokeReason("~ !".repeat(66) + "x"), Optional.empty())),
                // ... and the new fields on the five lease operations, as the table's rule says.
                Arguments.of(Operation.OWNER, "{\"key\":\"k\",\"reason\":\" \",\"prefix\":\"a.b\",\"page_size\":0}",
                        new Request.Owner(KEY)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("validBodies")
    void aValidBodyDecodesToItsRequest(Operation operation, String body, Request expected) {
        assertEquals(expected, Requests.decode(operation, bytes(body)));
    }
}
