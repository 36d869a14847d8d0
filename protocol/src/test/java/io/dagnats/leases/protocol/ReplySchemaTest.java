package io.dagnats.leases.protocol;

import static io.dagnats.leases.protocol.ReplyExamples.HOLDER;
import static io.dagnats.leases.protocol.ReplyExamples.KEY;
import static io.dagnats.leases.protocol.ReplyExamples.LEASE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Release;
import io.dagnats.leases.domain.Revocation;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reply schemas say what the service writes: every reply is valid under its endpoint's
 * schema, errors included, and an error reply only with a kind its operation answers with.
 */
class ReplySchemaTest {

    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    /** A revision past 2^63-1: fences are unsigned. */
    private static final Lease HIGH_LEASE = new Lease(KEY, HOLDER, new Fence(-2), new Fence(-3),
            Instant.parse("2026-10-18T12:00:00Z"), Instant.parse("2026-10-18T12:00:00Z"), LeaseTtl.ofSeconds(600));

    private static Schema replySchema(Operation operation) {
        return SCHEMAS.getSchema(ServiceDescription.replySchema(operation).orElseThrow(), InputFormat.JSON);
    }

    static Stream<Arguments> replies() {
        return Stream.of(
                Arguments.of(Operation.ACQUIRE, Replies.lease(LEASE, true)),
                Arguments.of(Operation.ACQUIRE, Replies.lease(LEASE, false)),
                Arguments.of(Operation.ACQUIRE, Replies.lease(HIGH_LEASE, true)),
                Arguments.of(Operation.RENEW, Replies.lease(LEASE, true)),
                Arguments.of(Operation.RELEASE, Replies.released(new Release.Released(KEY, HOLDER, new Fence(44)))),
                Arguments.of(Operation.OWNER, Replies.owner(new KeyState.Held(LEASE))),
                Arguments.of(Operation.OWNER, Replies.owner(new KeyState.Free(KEY, 9))),
                Arguments.of(Operation.FORWARD, Replies.forwarded(LEASE, new byte[] {1, 2, 3})),
                Arguments.of(Operation.FORWARD, Replies.forwarded(LEASE, new byte[0])),
                Arguments.of(Operation.FORWARD, Replies.forwardError(ErrorKind.OWNER_TIMEOUT, "slow", LEASE)),
                Arguments.of(Operation.FORWARD, Replies.error(ErrorKind.NO_OWNER, "nobody holds notify-leader")),
                Arguments.of(Operation.LIST, Replies.list(List.of(LEASE, HIGH_LEASE), Optional.of("43"))),
                Arguments.of(Operation.LIST, Replies.list(List.of(), Optional.empty())),
                Arguments.of(Operation.REVOKE, Replies.revoked(new Revocation.Revoked(KEY, HOLDER, new Fence(44), new Fence(42)))),
                Arguments.of(Operation.REVOKE, Replies.revoked(new Revocation.Free(KEY))),
                Arguments.of(Operation.REVOKE, Replies.revoked(new Revocation.NotCurrent(HIGH_LEASE))),
                Arguments.of(Operation.HANDOVER, Replies.handedOver(LEASE)),
                Arguments.of(Operation.HANDOVER, Replies.handedOver(HIGH_LEASE)),
                Arguments.of(Operation.CANDIDATES, Replies.candidates(KEY, List.of())),
                Arguments.of(Operation.CANDIDATES, Replies.candidates(KEY, List.of(new Candidate(KEY, HOLDER,
                        new io.dagnats.leases.domain.Incarnation("i"), -4, "1.2", java.time.Duration.ofMillis(7),
                        Candidate.State.OWNER)))));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("replies")
    void everyReplyTheServiceWritesIsValidUnderItsSchema(Operation operation, byte[] reply) {
        String body = new String(reply, StandardCharsets.UTF_8);
        assertEquals(List.of(), replySchema(operation).validate(body, InputFormat.JSON), body);
    }

    /**
     * The error kinds each operation answers with (docs/wire-protocol.md, "Errors"); every one
     * may answer {@code forbidden} in identity mode (ADR-036).
     */
    private static Set<ErrorKind> errorKinds(Operation operation) {
        Set<ErrorKind> kinds = EnumSet.of(ErrorKind.INVALID, ErrorKind.FORBIDDEN, ErrorKind.UNSUPPORTED,
                ErrorKind.UNAVAILABLE, ErrorKind.INTERNAL);
        switch (operation) {
            case HANDOVER -> kinds.addAll(EnumSet.of(ErrorKind.LOST, ErrorKind.NO_SUCCESSOR));
            case RENEW, RELEASE, ATTACH, DETACH -> kinds.add(ErrorKind.LOST);
            case MOVE -> kinds.addAll(EnumSet.of(ErrorKind.LOST, ErrorKind.NO_SUCCESSOR));
            case FORWARD -> kinds.addAll(EnumSet.of(ErrorKind.NO_OWNER, ErrorKind.OWNER_UNAVAILABLE,
                    ErrorKind.OWNER_REJECTED, ErrorKind.OWNER_TIMEOUT, ErrorKind.REPLY_TOO_LARGE));
            default -> { }
        }
        return kinds;
    }

    @ParameterizedTest
    @EnumSource(Operation.class)
    void theReplySchemaTakesTheErrorKindsOfItsOperationAndNoOther(Operation operation) {
        assumeTrue(ServiceDescription.replySchema(operation).isPresent(), operation + " ships no reply schema");
        Schema schema = replySchema(operation);
        for (ErrorKind kind : ErrorKind.values()) {
            String body = new String(Replies.error(kind, "a sentence"), StandardCharsets.UTF_8);
            assertEquals(errorKinds(operation).contains(kind), schema.validate(body, InputFormat.JSON).isEmpty(),
                    operation + ": " + body);
        }
    }
}
