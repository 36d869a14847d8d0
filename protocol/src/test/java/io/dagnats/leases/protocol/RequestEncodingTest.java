package io.dagnats.leases.protocol;

import static io.dagnats.leases.protocol.RequestExamples.HOLDER;
import static io.dagnats.leases.protocol.RequestExamples.KEY;
import static io.dagnats.leases.protocol.RequestExamples.RUN;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.RevokeReason;
import io.dagnats.leases.domain.Revoker;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A client encodes each request as the body the service decodes back to it. */
class RequestEncodingTest {

    static Stream<Arguments> encodedBodies() {
        return Stream.of(
                Arguments.of(new Request.Acquire(KEY, HOLDER, LeaseTtl.ofSeconds(15)),
                        "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000}"),
                Arguments.of(new Request.Renew(KEY, HOLDER, new Fence(42), Optional.empty()),
                        "{\"key\":\"k\",\"holder\":\"h\",\"revision\":42}"),
                Arguments.of(new Request.Renew(KEY, HOLDER, new Fence(42), Optional.of(LeaseTtl.ofSeconds(60))),
                        "{\"key\":\"k\",\"holder\":\"h\",\"revision\":42,\"ttl_ms\":60000}"),
                Arguments.of(new Request.Release(KEY, HOLDER, new Fence(43)),
                        "{\"key\":\"k\",\"holder\":\"h\",\"revision\":43}"),
                Arguments.of(new Request.Acquire(KEY, HOLDER, Optional.of(RUN), LeaseTtl.ofSeconds(15)),
                        "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"run-1\",\"ttl_ms\":15000}"),
                Arguments.of(new Request.Renew(KEY, HOLDER, Optional.of(RUN), new Fence(42), Optional.empty()),
                        "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"run-1\",\"revision\":42}"),
                Arguments.of(new Request.Release(KEY, HOLDER, Optional.of(RUN), new Fence(43)),
                        "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"run-1\",\"revision\":43}"),
                Arguments.of(new Request.Owner(KEY), "{\"key\":\"k\"}"),
                Arguments.of(new Request.Revoke(KEY, new RevokeReason("stuck: \"GC\""), Optional.empty()),
                        "{\"key\":\"k\",\"reason\":\"stuck: \\\"GC\\\"\"}"),
                Arguments.of(new Request.Revoke(KEY, new RevokeReason("r"), Optional.of(new Fence(42))),
                        "{\"key\":\"k\",\"reason\":\"r\",\"revision\":42}"),
                Arguments.of(new Request.Revoke(KEY, new RevokeReason("r"), Optional.empty(), Optional.empty(),
                        Optional.of(new Revoker("alice@ops-1"))),
                        "{\"key\":\"k\",\"reason\":\"r\",\"by\":\"alice@ops-1\"}"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("encodedBodies")
    void aClientEncodesTheBodyTheServiceDecodes(Request request, String body) {
        assertEquals(body, new String(Requests.encode(request), StandardCharsets.UTF_8));
        assertEquals(request, Requests.decode(request.operation(), Requests.encode(request)));
    }
}
