package io.dagnats.leases.acceptance.operations;

import static io.dagnats.leases.acceptance.harness.WireClient.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.service.Discovery;
import io.nats.service.Endpoint;
import io.nats.service.InfoResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lease subjects are one NATS micro service, discoverable with $SRV: PING,
 * INFO, STATS and SCHEMA, read here with jnats' own Discovery where it parses
 * the replies and raw requests otherwise.
 */
class ServiceDiscoveryAcceptanceTest extends ServiceDiscoveryRequests {

    @Test
    void infoListsEveryEndpointInTheQueueGroup() throws Exception {
        JsonNode info = WireClient.parse(request("$SRV.INFO.dagnats-api", ""));

        assertEquals("dagnats-api", info.path("name").asText(), info.toString());
        Map<String, String> queueGroups = new TreeMap<>();
        for (JsonNode endpoint : info.path("endpoints")) {
            queueGroups.put(endpoint.path("subject").asText(), endpoint.path("queue_group").asText());
        }
        Map<String, String> expected = new TreeMap<>();
        // The guide's five, the operator's two, handover and candidates (ADR-042), attach, detach, move (ADR-043).
        for (String endpoint : List.of("acquire", "renew", "release", "owner", "forward", "list", "revoke", "handover", "candidates", "attach", "detach", "move")) {
            expected.put("api.leases." + endpoint, "dagnats-leases");
        }
        assertEquals(expected, queueGroups);
    }

    @Test
    void pingAnswersWithTheServiceName() throws Exception {
        JsonNode ping = WireClient.parse(request("$SRV.PING.dagnats-api", ""));
        assertEquals("dagnats-api", ping.path("name").asText(), ping.toString());
    }

    @Test
    void infoAndPingCarryTheServiceMetadata() {
        List<InfoResponse> infos = discovery().info("dagnats-api");
        assertEquals(1, infos.size(), infos.toString());
        InfoResponse info = infos.get(0);

        Map<String, String> expected = Map.of(
                "version", BuildVersion.expected(),
                "bucket", "leases",
                "nats_server_version", client.connection().getServerInfo().getVersion(),
                "leases_supported", "true");
        // The standard keys; each instance's set-up (authentication, telemetry...) follows them, for status.
        assertEquals(expected, standardKeys(info.getMetadata()), info.toString());
        assertEquals(BuildVersion.expected(), info.getVersion());
        assertFalse(info.getDescription().isBlank(), info.toString());
        assertEquals(expected, standardKeys(discovery().ping("dagnats-api", info.getId()).getMetadata()));
    }

    private static Map<String, String> standardKeys(Map<String, String> metadata) {
        Map<String, String> standard = new TreeMap<>(metadata);
        standard.keySet().retainAll(List.of("version", "bucket", "nats_server_version", "leases_supported"));
        return standard;
    }

    @Test
    void eachEndpointSaysWhatItIsAndNamesItsSchemas() {
        InfoResponse info = discovery().info("dagnats-api").get(0);

        List<String> names = new ArrayList<>();
        for (Endpoint endpoint : info.getEndpoints()) {
            names.add(endpoint.getName());
            Map<String, String> metadata = endpoint.getMetadata();
            assertTrue(List.of("lease", "admin").contains(metadata.get("kind")), endpoint.toString());
            assertFalse(metadata.get("description").isBlank(), endpoint.toString());
            if (ENDPOINTS.contains(endpoint.getName()) || ADMIN_ENDPOINTS.contains(endpoint.getName())) {
                assertEquals(ENDPOINTS.contains(endpoint.getName()) ? "lease" : "admin", metadata.get("kind"),
                        endpoint.toString());
                assertEquals(endpoint.getName() + ".request.json", metadata.get("request_schema"), endpoint.toString());
                assertEquals(endpoint.getName() + ".reply.json", metadata.get("reply_schema"), endpoint.toString());
            }
        }
        assertEquals(ENDPOINTS, names.subList(0, ENDPOINTS.size()));
        assertEquals(ADMIN_ENDPOINTS, names.subList(ENDPOINTS.size(), ENDPOINTS.size() + ADMIN_ENDPOINTS.size()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PING", "INFO", "STATS", "SCHEMA"})
    void everyVerbAnswersForAllServicesForTheNameAndForTheInstance(String verb) throws Exception {
        String id = serviceId();
        String type = "io.nats.micro.v1." + verb.toLowerCase() + "_response";
        for (String subject : List.of("$SRV." + verb, "$SRV." + verb + ".dagnats-api",
                "$SRV." + verb + ".dagnats-api." + id)) {
            JsonNode reply = WireClient.parse(request(subject, ""));
            assertEquals(type, reply.path("type").asText(), subject + ": " + reply);
            assertEquals(id, reply.path("id").asText(), subject + ": " + reply);
            assertEquals("dagnats-api", reply.path("name").asText(), subject + ": " + reply);
            assertEquals("true", reply.path("metadata").path("leases_supported").asText(), subject + ": " + reply);
        }
    }

    @Test
    void schemaAnswersWithEachEndpointsRequestAndReplySchemas() throws Exception {
        JsonNode schemas = WireClient.parse(request("$SRV.SCHEMA.dagnats-api", ""));

        List<String> withSchemas = new ArrayList<>();
        for (JsonNode endpoint : schemas.path("endpoints")) {
            String name = endpoint.path("name").asText();
            assertEquals("api.leases." + name, endpoint.path("subject").asText(), endpoint.toString());
            assertEquals("dagnats-leases", endpoint.path("queue_group").asText(), endpoint.toString());
            if (endpoint.path("schema").isMissingNode()) {
                continue; // an endpoint that ships no schema is answered without one
            }
            withSchemas.add(name);
            // Schemas travel as strings holding JSON Schema documents.
            assertTrue(endpoint.path("schema").path("request").isTextual(), endpoint.toString());
            JsonNode request = json(endpoint.path("schema").path("request").asText());
            assertEquals("https://json-schema.org/draft/2020-12/schema", request.path("$schema").asText());
            assertFalse(request.path("additionalProperties").asBoolean(true), request.toString());
            JsonNode reply = json(endpoint.path("schema").path("response").asText());
            assertTrue(reply.path("oneOf").isArray(), reply.toString());
            assertTrue(reply.path("$defs").path("error").path("required").toString().contains("\"kind\""),
                    reply.toString());
        }
        assertTrue(withSchemas.containsAll(ENDPOINTS) && withSchemas.containsAll(ADMIN_ENDPOINTS), withSchemas.toString());
    }
}
