package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Release;
import io.dagnats.leases.domain.Revocation;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The endpoints' JSON Schemas say what the codecs do: every body the request
 * decoder accepts is valid under the request schema and (where a schema can say
 * it) every body it refuses is not; every reply the service writes is valid
 * under the reply schema, errors included.
 */
class ServiceDescriptionTest {

    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final LeaseKey KEY = new LeaseKey("notify-leader");
    private static final HolderId HOLDER = new HolderId("notify-7f3a");
    private static final Lease LEASE = new Lease(KEY, HOLDER, new Fence(42), new Fence(40),
            Instant.parse("2026-10-18T12:00:00Z"), Instant.parse("2026-10-18T12:00:00.250Z"), LeaseTtl.ofSeconds(15));
    /** A revision past 2^63-1: fences are unsigned. */
    private static final Lease HIGH_LEASE = new Lease(KEY, HOLDER, new Fence(-2), new Fence(-3),
            Instant.parse("2026-10-18T12:00:00Z"), Instant.parse("2026-10-18T12:00:00Z"), LeaseTtl.ofSeconds(600));

    private static Schema requestSchema(Operation operation) {
        return SCHEMAS.getSchema(ServiceDescription.requestSchema(operation).orElseThrow(), InputFormat.JSON);
    }

    private static Schema replySchema(Operation operation) {
        return SCHEMAS.getSchema(ServiceDescription.replySchema(operation).orElseThrow(), InputFormat.JSON);
    }

    private static boolean decodes(Operation operation, String body) {
        try {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            if (operation == Operation.LIST) {
                Requests.list(bytes);
            } else {
                Requests.decode(operation, bytes);
            }
            return true;
        } catch (InvalidLeaseInput invalid) {
            return false;
        }
    }

    static Stream<Arguments> requestBodies() {
        return Stream.of(
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000}"),
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000,\"revision\":-3,"
                        + "\"payload\":\"x\",\"timeout_ms\":1}"),
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":1500}"),
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":0}"),
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":601000}"),
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\"}"),
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"ttl_ms\":15000}"),
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"a.b\",\"holder\":\"h\",\"ttl_ms\":15000}"),
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"" + "k".repeat(129) + "\",\"holder\":\"h\",\"ttl_ms\":15000}"),
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":\"15000\"}"),
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000,\"Key\":\"k\"}"),
                Arguments.of(Operation.ACQUIRE, "[]"),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":42}"),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":42,\"ttl_ms\":60000}"),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":9223372036854775807}"),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":0}"),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":9223372036854775808}"),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\"}"),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":42,\"ttl_ms\":1500}"),
                Arguments.of(Operation.RELEASE, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":7,\"ttl_ms\":1500}"),
                Arguments.of(Operation.RELEASE, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":-1}"),
                Arguments.of(Operation.RELEASE, "{\"key\":\"k\",\"revision\":7}"),
                Arguments.of(Operation.OWNER, "{\"key\":\"k\"}"),
                Arguments.of(Operation.OWNER, "{\"key\":\"k\",\"holder\":\"not a token!\",\"revision\":0}"),
                Arguments.of(Operation.OWNER, "{\"key\":\"k\",\"holder\":5}"),
                Arguments.of(Operation.OWNER, "{}"),
                Arguments.of(Operation.FORWARD, "{\"key\":\"k\",\"payload\":\"aGk=\"}"),
                Arguments.of(Operation.FORWARD, "{\"key\":\"k\",\"payload\":\"\",\"timeout_ms\":30000}"),
                Arguments.of(Operation.FORWARD, "{\"key\":\"k\",\"payload\":\"aGk=\",\"timeout_ms\":99}"),
                Arguments.of(Operation.FORWARD, "{\"key\":\"k\",\"payload\":\"aGk=\",\"timeout_ms\":30001}"),
                Arguments.of(Operation.FORWARD, "{\"key\":\"k\",\"payload\":\"a?k=\"}"),
                Arguments.of(Operation.FORWARD, "{\"key\":\"k\"}"),
                Arguments.of(Operation.FORWARD, "{\"key\":\"k\",\"payload\":\"aGk=\",\"ttl_ms\":1500,\"holder\":\"x y\"}"),
                // The operator fields are in the table too: accepted and ignored on the lease subjects, if typed.
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000,\"prefix\":\"a.b\","
                        + "\"page_size\":0,\"cursor\":\"\",\"reason\":\" \"}"),
                Arguments.of(Operation.OWNER, "{\"key\":\"k\",\"reason\":5}"),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":1,\"page_size\":\"10\"}"),
                // account only where it means something (owner, revoke; ADR-036): unknown on the others.
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000,\"account\":\"A\"}"),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":1,\"account\":\"A\"}"),
                Arguments.of(Operation.RELEASE, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":1,\"account\":\"A\"}"),
                Arguments.of(Operation.FORWARD, "{\"key\":\"k\",\"payload\":\"\",\"account\":\"A\"}"),
                Arguments.of(Operation.LIST, "{\"account\":\"A\"}"),
                Arguments.of(Operation.OWNER, "{\"key\":\"k\",\"account\":\"A\"}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"r\",\"account\":\"A\"}"),
                Arguments.of(Operation.LIST, "{}"),
                Arguments.of(Operation.LIST, "{\"prefix\":\"shard-\",\"page_size\":1}"),
                Arguments.of(Operation.LIST, "{\"prefix\":\"\",\"page_size\":1000,\"cursor\":\"1796055758681470\"}"),
                Arguments.of(Operation.LIST, "{\"prefix\":\"" + "p".repeat(128) + "\"}"),
                Arguments.of(Operation.LIST, "{\"prefix\":\"" + "p".repeat(129) + "\"}"),
                Arguments.of(Operation.LIST, "{\"prefix\":\"a.b\"}"),
                Arguments.of(Operation.LIST, "{\"page_size\":0}"),
                Arguments.of(Operation.LIST, "{\"page_size\":1001}"),
                Arguments.of(Operation.LIST, "{\"page_size\":\"10\"}"),
                Arguments.of(Operation.LIST, "{\"cursor\":\"\"}"),
                Arguments.of(Operation.LIST, "{\"cursor\":\"a b\"}"),
                Arguments.of(Operation.LIST, "{\"cursor\":\"" + "1".repeat(65) + "\"}"),
                Arguments.of(Operation.LIST, "{\"limit\":10}"),
                Arguments.of(Operation.LIST, "{\"key\":\"a.b\",\"holder\":\"x y\",\"ttl_ms\":1500,\"revision\":-1,"
                        + "\"payload\":\"!!\",\"timeout_ms\":0,\"reason\":\"\"}"),
                Arguments.of(Operation.LIST, "{\"key\":5}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"stuck after a GC pause\"}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"r\",\"revision\":42}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"~ !\",\"holder\":\"x y\",\"page_size\":0}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"" + "r".repeat(200) + "\"}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"" + "r".repeat(201) + "\"}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"\"}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\" r\"}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"r \"}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"a\\nb\"}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"caf\u00e9\"}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\"}"),
                Arguments.of(Operation.REVOKE, "{\"reason\":\"r\"}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"r\",\"revision\":0}"),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"r\",\"force\":true}"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("requestBodies")
    void theRequestSchemaAcceptsExactlyWhatTheServiceDecodes(Operation operation, String body) {
        boolean valid = requestSchema(operation).validate(body, InputFormat.JSON).isEmpty();
        assertEquals(decodes(operation, body), valid, body);
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
                Arguments.of(Operation.REVOKE, Replies.revoked(new Revocation.NotCurrent(HIGH_LEASE))));
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
            case RENEW, RELEASE -> kinds.add(ErrorKind.LOST);
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

    @ParameterizedTest
    @EnumSource(Operation.class)
    void everyEndpointIsDescribedAndNamesTheSchemasItShips(Operation operation) {
        Map<String, String> metadata = ServiceDescription.endpointMetadata(operation);

        assertEquals(ServiceDescription.kind(operation).wireName(), metadata.get(ServiceDescription.ENDPOINT_KIND));
        assertFalse(metadata.get(ServiceDescription.ENDPOINT_DESCRIPTION).isBlank());
        assertEquals(ServiceDescription.requestSchema(operation).map(schema -> operation.endpointName() + ".request.json"),
                Optional.ofNullable(metadata.get(ServiceDescription.REQUEST_SCHEMA)));
        assertEquals(ServiceDescription.replySchema(operation).map(schema -> operation.endpointName() + ".reply.json"),
                Optional.ofNullable(metadata.get(ServiceDescription.REPLY_SCHEMA)));
    }

    @ParameterizedTest
    @EnumSource(value = Operation.class, names = {"ACQUIRE", "RENEW", "RELEASE", "OWNER", "FORWARD"})
    void theLeaseEndpointsAreForHoldersAndShipBothSchemas(Operation operation) {
        Map<String, String> metadata = ServiceDescription.endpointMetadata(operation);

        assertEquals(List.of(ServiceDescription.ENDPOINT_KIND, ServiceDescription.ENDPOINT_DESCRIPTION,
                ServiceDescription.REQUEST_SCHEMA, ServiceDescription.REPLY_SCHEMA), List.copyOf(metadata.keySet()));
        assertEquals("lease", metadata.get(ServiceDescription.ENDPOINT_KIND));
    }

    @ParameterizedTest
    @EnumSource(value = Operation.class, names = {"LIST", "REVOKE"})
    void theOperatorEndpointsAreAdminAndShipBothSchemas(Operation operation) {
        Map<String, String> metadata = ServiceDescription.endpointMetadata(operation);

        assertEquals(List.of(ServiceDescription.ENDPOINT_KIND, ServiceDescription.ENDPOINT_DESCRIPTION,
                ServiceDescription.REQUEST_SCHEMA, ServiceDescription.REPLY_SCHEMA), List.copyOf(metadata.keySet()));
        assertEquals("admin", metadata.get(ServiceDescription.ENDPOINT_KIND));
    }

    @Test
    void aSchemaThatDoesNotShipIsAbsentNotAFailure() {
        assertTrue(ServiceDescription.schema("owner.request.json").isPresent());
        assertEquals(Optional.empty(), ServiceDescription.schema("no-such-endpoint.request.json"));
    }
}
