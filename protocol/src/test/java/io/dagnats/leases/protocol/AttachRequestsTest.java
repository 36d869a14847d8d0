package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.LeaseKey;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** attach, detach and move requests (ADR-043), and the guide's subjects left as they were. */
class AttachRequestsTest {

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anAttachRoundTripsThroughItsEncoding() {
        Request.Attach attach = Requests.attach(bytes(
                "{\"key\":\"s-1\",\"holder\":\"h\",\"member\":\"m-h\",\"member_tenure\":40,\"value\":\"2\"}"));
        assertEquals(new LeaseKey("m-h"), attach.member());
        assertEquals(new Fence(40), attach.memberTenure());
        assertEquals(Optional.of("2"), attach.value());
        assertEquals(attach, Requests.decode(Operation.ATTACH, Requests.encode(attach)));
        Request.Move move = Requests.move(bytes("{\"key\":\"s-1\",\"holder\":\"h\",\"revision\":71,\"to_holder\":\"h2\","
                + "\"to_incarnation\":\"r2\",\"to_member\":\"m-h2\",\"to_member_tenure\":12}"));
        assertEquals(move, Requests.decode(Operation.MOVE, Requests.encode(move)));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"key\":\"s-1\",\"holder\":\"h\",\"member_tenure\":40}",
        "{\"key\":\"s-1\",\"holder\":\"h\",\"member\":\"m\"}",
        "{\"key\":\"s-1\",\"holder\":\"h\",\"member\":\"m\",\"member_tenure\":0}",
        "{\"key\":\"s-1\",\"holder\":\"h\",\"member\":\"s-1\",\"member_tenure\":4}",
        "{\"key\":\"s-1\",\"holder\":\"h\",\"member\":\"m\",\"member_tenure\":\"4\"}"
    })
    void anAttachWithoutAMemberTenureOrAttachedToItselfIsInvalid(String body) {
        assertThrows(InvalidLeaseInput.class, () -> Requests.attach(bytes(body)));
    }

    @Test
    void aValueLongerThan256BytesIsInvalid() {
        String value = "é".repeat(129);
        assertThrows(InvalidLeaseInput.class, () -> Requests.attach(bytes(
                "{\"key\":\"s\",\"holder\":\"h\",\"member\":\"m\",\"member_tenure\":1,\"value\":\"" + value + "\"}")));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "ATTACH|{\"key\":\"s-1\",\"holder\":\"h\",\"incarnation\":\"r1\",\"member\":\"m-h\",\"member_tenure\":40,\"value\":\"2\"}",
        "DETACH|{\"key\":\"s-1\",\"holder\":\"h\",\"revision\":71,\"ttl_ms\":1}",
        "MOVE|{\"key\":\"s-1\",\"holder\":\"h\",\"revision\":71,\"to_holder\":\"h2\",\"to_member\":\"m\",\"to_member_tenure\":3}"
    })
    void whatTheDecoderAcceptsTheRequestSchemaAccepts(String example) {
        Operation operation = Operation.valueOf(example.substring(0, example.indexOf('|')));
        String body = example.substring(example.indexOf('|') + 1);
        Requests.decode(operation, bytes(body));
        Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(ServiceDescription.requestSchema(operation).orElseThrow(), InputFormat.JSON);
        assertEquals(List.of(), schema.validate(body, InputFormat.JSON), body);
    }

    @Test
    void theGuidesSubjectsStillRefuseTheNewFieldsAsUnknown() {
        InvalidLeaseInput refused = assertThrows(InvalidLeaseInput.class, () -> Requests.acquire(bytes(
                "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000,\"member\":\"m\"}")));
        assertTrue(refused.getMessage().contains("member"), refused.getMessage());
        assertThrows(InvalidLeaseInput.class, () -> Requests.renew(bytes(
                "{\"key\":\"k\",\"holder\":\"h\",\"revision\":3,\"to_member_tenure\":3}")));
    }
}
