package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.nats.client.api.StreamState;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every input rule of the contract: the answer is kind invalid, and nothing in the bucket changes. */
class InvalidInputAcceptanceTest extends SharedServiceTest {

    private static final String KEY_129 = "k".repeat(129);

    private static long heldRevision;

    @BeforeAll
    static void holdOneKey() {
        heldRevision = client.acquire("held", "a", 60_000).path("revision").asLong();
    }

    static Stream<Arguments> invalidRequests() {
        return Stream.of(
                // bodies that are not one JSON object
                Arguments.of("acquire", ""),
                Arguments.of("acquire", "   "),
                Arguments.of("acquire", "null"),
                Arguments.of("acquire", "[]"),
                Arguments.of("acquire", "\"held\""),
                Arguments.of("owner", "42"),
                Arguments.of("acquire", "{"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":15000} {}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":15000}x"),
                Arguments.of("renew", "not json at all"),
                Arguments.of("owner", "{\"key\":\"held\",\"key\":\"held\"}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":15000,\"ttl_ms\":15000}"),
                Arguments.of("release", "{\"key\":\"held\",\"holder\":\"a\",\"revision\":1,\"extra\":true}"),
                Arguments.of("owner", "{\"key\":\"held\",\"Key\":\"held\"}"),
                // key and holder
                Arguments.of("acquire", "{\"holder\":\"b\",\"ttl_ms\":15000}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"ttl_ms\":15000}"),
                Arguments.of("acquire", "{\"key\":\"\",\"holder\":\"b\",\"ttl_ms\":15000}"),
                Arguments.of("acquire", "{\"key\":\"a.b\",\"holder\":\"b\",\"ttl_ms\":15000}"),
                Arguments.of("acquire", "{\"key\":\"a*\",\"holder\":\"b\",\"ttl_ms\":15000}"),
                Arguments.of("acquire", "{\"key\":\">\",\"holder\":\"b\",\"ttl_ms\":15000}"),
                Arguments.of("acquire", "{\"key\":\"a b\",\"holder\":\"b\",\"ttl_ms\":15000}"),
                Arguments.of("acquire", "{\"key\":\"caf\u00e9\",\"holder\":\"b\",\"ttl_ms\":15000}"),
                Arguments.of("acquire", "{\"key\":\"" + KEY_129 + "\",\"holder\":\"b\",\"ttl_ms\":15000}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b.c\",\"ttl_ms\":15000}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"" + KEY_129 + "\",\"ttl_ms\":15000}"),
                Arguments.of("acquire", "{\"key\":7,\"holder\":\"b\",\"ttl_ms\":15000}"),
                Arguments.of("acquire", "{\"key\":null,\"holder\":\"b\",\"ttl_ms\":15000}"),
                Arguments.of("acquire", "{\"key\":[\"a\"],\"holder\":\"b\",\"ttl_ms\":15000}"),
                Arguments.of("owner", "{}"),
                Arguments.of("owner", "{\"key\":\"held.>\"}"),
                Arguments.of("renew", "{\"key\":\"held\",\"revision\":1}"),
                // ttl_ms
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\"}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":1500}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":999}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":0}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":601000}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":-15000}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":\"15000\"}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":1.5e3}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":15000.0}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":1e4}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":9223372036854775808}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":null}"),
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":true}"),
                Arguments.of("renew", "{\"key\":\"held\",\"holder\":\"a\",\"revision\":" + Long.MAX_VALUE + ",\"ttl_ms\":1500}"),
                // revision
                Arguments.of("renew", "{\"key\":\"held\",\"holder\":\"a\"}"),
                Arguments.of("renew", "{\"key\":\"held\",\"holder\":\"a\",\"revision\":0}"),
                Arguments.of("renew", "{\"key\":\"held\",\"holder\":\"a\",\"revision\":-1}"),
                Arguments.of("renew", "{\"key\":\"held\",\"holder\":\"a\",\"revision\":\"1\"}"),
                Arguments.of("renew", "{\"key\":\"held\",\"holder\":\"a\",\"revision\":1.0}"),
                Arguments.of("renew", "{\"key\":\"held\",\"holder\":\"a\",\"revision\":18446744073709551616}"),
                Arguments.of("release", "{\"key\":\"held\",\"holder\":\"a\"}"),
                Arguments.of("release", "{\"key\":\"held\",\"holder\":\"a\",\"revision\":null}"),
                Arguments.of("release", "{\"key\":\"held\",\"revision\":1}"),
                // account: identity mode only, and then only on owner and revoke (ADR-036, amended)
                Arguments.of("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":15000,\"account\":\"A\"}"),
                Arguments.of("renew", "{\"key\":\"held\",\"holder\":\"a\",\"revision\":1,\"account\":\"A\"}"),
                Arguments.of("release", "{\"key\":\"held\",\"holder\":\"a\",\"revision\":1,\"account\":\"A\"}"),
                Arguments.of("owner", "{\"key\":\"held\",\"account\":\"A\"}"),
                Arguments.of("forward", "{\"key\":\"held\",\"payload\":\"\",\"account\":\"A\"}"),
                Arguments.of("list", "{\"account\":\"A\"}"),
                Arguments.of("revoke", "{\"key\":\"held\",\"reason\":\"r\",\"account\":\"A\"}"),
                // nesting
                Arguments.of("owner", "{\"key\":" + "[".repeat(5000) + "]".repeat(5000) + "}"),
                Arguments.of("owner", "[".repeat(100_000)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("invalidRequests")
    void anInvalidRequestIsAnsweredInvalidAndChangesNothing(String operation, String body) throws Exception {
        long before = lastSequence();

        JsonNode reply = client.call(operation, body);

        assertEquals("invalid", reply.path("kind").asText(), reply.toString());
        assertFalse(reply.path("error").asText().isBlank(), reply.toString());
        assertEquals(before, lastSequence(), "the bucket changed");
        assertEquals(heldRevision, client.owner("held").path("revision").asLong());
    }

    @Test
    void fieldsAnOperationIgnoresAreAccepted() {
        JsonNode owner = client.call("owner",
                "{\"key\":\"held\",\"holder\":\"x\",\"ttl_ms\":15000,\"revision\":3,\"payload\":\"\",\"timeout_ms\":100}");
        assertEquals(heldRevision, owner.path("revision").asLong(), owner.toString());

        JsonNode acquire = client.call("acquire",
                "{\"key\":\"held\",\"holder\":\"a\",\"ttl_ms\":60000,\"revision\":99,\"timeout_ms\":5000}");
        assertEquals(heldRevision, acquire.path("revision").asLong(), acquire.toString());
    }

    @Test
    void anInvalidRequestNamesWhatIsWrong() {
        JsonNode reply = client.call("acquire", "{\"key\":\"a\",\"holder\":\"b\",\"ttl_ms\":1500}");
        assertEquals("invalid", reply.path("kind").asText());
        assertTrue(reply.path("error").asText().contains("ttl_ms"), reply.toString());
    }

    /** As before identity mode existed: with the mode off there is no account to name. */
    @Test
    void anAccountIsAnUnknownFieldWithTheModeOff() {
        for (String operation : new String[] {"acquire", "list", "owner", "revoke"}) {
            JsonNode reply = client.call(operation, "{\"key\":\"held\",\"holder\":\"a\",\"ttl_ms\":60000,"
                    + "\"reason\":\"r\",\"account\":\"A\"}");
            assertEquals("invalid", reply.path("kind").asText(), operation + ": " + reply);
            assertTrue(reply.path("error").asText().contains("unknown field \"account\""), operation + ": " + reply);
        }
    }

    private static long lastSequence() throws Exception {
        StreamState state = client.connection().jetStreamManagement().getStreamInfo("KV_leases").getStreamState();
        return state.getLastSequence();
    }
}
