package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What discovery says of each endpoint: its kind, a description, and the names of the
 * JSON Schemas it ships (RequestSchemaTest and ReplySchemaTest check what those say).
 */
class ServiceDescriptionTest {

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
