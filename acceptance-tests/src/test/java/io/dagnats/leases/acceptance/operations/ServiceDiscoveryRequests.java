package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Message;
import io.nats.service.Discovery;
import io.nats.service.EndpointStats;
import io.nats.service.PingResponse;
import io.nats.service.StatsResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Requests to the shared service's micro subjects and what the tests read from the answers. A base class so that the tests, split by the rule they prove, moved without being rewritten.
 */
abstract class ServiceDiscoveryRequests extends SharedServiceTest {

    static final Duration WAIT = Duration.ofSeconds(5);
    static final List<String> ENDPOINTS = List.of("acquire", "renew", "release", "owner", "forward");
    /** The operators' endpoints, after the lease ones. */
    static final List<String> ADMIN_ENDPOINTS = List.of("list", "revoke");

    static Discovery discovery() {
        return new Discovery(client.connection(), WAIT.toMillis(), 1);
    }

    static String serviceId() {
        List<PingResponse> pings = discovery().ping("dagnats-api");
        assertEquals(1, pings.size(), pings.toString());
        return pings.get(0).getId();
    }

    static Message request(String subject, String body) throws InterruptedException {
        Message reply = client.connection().request(subject, body.getBytes(StandardCharsets.UTF_8), WAIT);
        assertNotNull(reply, "no reply on " + subject);
        return reply;
    }

    static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> fields = object.fieldNames(); fields.hasNext(); ) {
            names.add(fields.next());
        }
        return names;
    }

    static EndpointStats endpoint(StatsResponse stats, String name) {
        return stats.getEndpointStatsList().stream().filter(endpoint -> endpoint.getName().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no stats for " + name + ": " + stats));
    }

    static void assertServiceError(Message reply, String kind, String code) {
        JsonNode body = WireClient.parse(reply);
        assertEquals(List.of("error", "kind"), fieldNames(body), body.toString());
        assertEquals(kind, body.path("kind").asText(), body.toString());
        assertTrue(reply.hasHeaders(), kind + " carries no headers");
        assertFalse(reply.isStatusMessage(), kind + " reads as a status message");
        assertEquals(body.path("error").asText(), reply.getHeaders().getFirst("Nats-Service-Error"), body.toString());
        assertEquals(code, reply.getHeaders().getFirst("Nats-Service-Error-Code"), body.toString());
    }
}
