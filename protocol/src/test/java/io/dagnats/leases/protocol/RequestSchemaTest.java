package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.dagnats.leases.domain.InvalidLeaseInput;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The request schemas say what the request decoder does: every body it accepts is valid
 * under its endpoint's schema and (where a schema can say it) every body it refuses is not.
 */
class RequestSchemaTest {

    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    private static Schema requestSchema(Operation operation) {
        return SCHEMAS.getSchema(ServiceDescription.requestSchema(operation).orElseThrow(), InputFormat.JSON);
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
                revoke("stuck after a GC pause", ""),
                revoke("r", ",\"revision\":42"),
                revoke("~ !", ",\"holder\":\"x y\",\"page_size\":0"),
                revoke("r".repeat(200), ""),
                revoke("r".repeat(201), ""),
                revoke("", ""),
                revoke(" r", ""),
                revoke("r ", ""),
                revoke("a\\nb", ""),
                revoke("caf\u00e9", ""),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\"}"),
                Arguments.of(Operation.REVOKE, "{\"reason\":\"r\"}"),
                revoke("r", ",\"revision\":0"),
                revoke("r", ",\"force\":true"),
                // by: who revokes (ADR-041), a header value like reason; a table field, so ignored elsewhere if typed.
                revokeBy("alice@ops-1"),
                revokeBy("b".repeat(321)),
                revokeBy("b".repeat(322)),
                revokeBy(""),
                revokeBy("alice "),
                revokeBy("caf\u00e9"),
                revoke("r", ",\"by\":7"),
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000,\"by\":\"\"}"),
                Arguments.of(Operation.OWNER, "{\"key\":\"k\",\"by\":7}"),
                // handover and candidates (ADR-042); to_holder differing from holder is a rule no schema states.
                Arguments.of(Operation.HANDOVER, "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"i\",\"revision\":4,"
                        + "\"to_holder\":\"h2\",\"to_incarnation\":\"i2\"}"),
                handover(4, "h2", ",\"ttl_ms\":60000,\"reason\":\"x\""),
                Arguments.of(Operation.HANDOVER, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":4,\"to_holder\":\"h2\"}"),
                handover(0, "h2", ""),
                handover(4, "h 2", ""),
                handover(4, "h2", ",\"ttl_ms\":1500"),
                handover(4, "h2", ",\"account\":\"A\""),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":1,\"to_holder\":\"h2\"}"),
                Arguments.of(Operation.CANDIDATES, "{\"key\":\"k\"}"),
                Arguments.of(Operation.CANDIDATES, "{\"key\":\"k\",\"timeout_ms\":5000,\"account\":\"A\"}"),
                Arguments.of(Operation.CANDIDATES, "{\"key\":\"k\",\"timeout_ms\":9}"),
                Arguments.of(Operation.CANDIDATES, "{\"key\":\"k\",\"to_holder\":\"h2\"}"),
                Arguments.of(Operation.CANDIDATES, "{}"));
    }

    /** A revoke of k for {@code reason}, then {@code more} fields (each with its leading comma). */
    private static Arguments revoke(String reason, String more) {
        return Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"" + reason + "\"" + more + "}");
    }

    /** A revoke of k for "r" that names {@code by} as who revokes (ADR-041). */
    private static Arguments revokeBy(String by) {
        return revoke("r", ",\"by\":\"" + by + "\"");
    }

    /** A handover of k by h at {@code revision} to {@code toHolder} under i2, then {@code more} fields. */
    private static Arguments handover(long revision, String toHolder, String more) {
        return Arguments.of(Operation.HANDOVER, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":" + revision
                + ",\"to_holder\":\"" + toHolder + "\",\"to_incarnation\":\"i2\"" + more + "}");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("requestBodies")
    void theRequestSchemaAcceptsExactlyWhatTheServiceDecodes(Operation operation, String body) {
        boolean valid = requestSchema(operation).validate(body, InputFormat.JSON).isEmpty();
        assertEquals(decodes(operation, body), valid, body);
    }
}
