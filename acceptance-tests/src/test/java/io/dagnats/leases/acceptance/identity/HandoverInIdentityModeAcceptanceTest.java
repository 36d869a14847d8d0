package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Dispatcher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Handover and candidates through identity.conf (ADR-042): dagnats reaches the application
 * account's candidates over dagnats.route.<account>., the gathering's export answers as a stream,
 * dagnats' grant of the successor's yes reaches it by the same route (ADR-046), and the successor
 * (another user of the same principal: B shares no users) renews what it was handed.
 */
class HandoverInIdentityModeAcceptanceTest extends IdentityModeService {

    @Test
    void bobHandsALeaseToBeaThroughTheRouteAndBeaRenewsIt() throws Exception {
        WireClient bob = as("bob");
        WireClient bea = as("bea");
        String answer = WireClient.object().put("key", "id-handover").put("holder", "bea").put("incarnation", "e1")
                .put("priority", 1).put("version", "2").put("waited_ms", 10).put("state", "waiting").toString();
        java.util.concurrent.BlockingQueue<io.nats.client.Message> grants = new java.util.concurrent.LinkedBlockingQueue<>();
        Dispatcher candidate = bea.connection().createDispatcher(request -> {
            if (request.getReplyTo() == null) {
                grants.add(request); // dagnats' grant of the yes (ADR-046), through the same route
            } else {
                bea.connection().publish(request.getReplyTo(), answer.getBytes(StandardCharsets.UTF_8));
            }
        });
        candidate.subscribe("dagnats.lease.candidate.bea.id-handover");
        candidate.subscribe("dagnats.lease.candidates.id-handover");
        bea.connection().flush(Duration.ofSeconds(5));
        long revision = granted(bob.call("acquire", WireClient.object().put("key", "id-handover").put("holder", "bob")
                .put("incarnation", "b1").put("ttl_ms", TTL)));

        JsonNode candidates = bob.call("candidates", WireClient.object().put("key", "id-handover"));
        JsonNode handed = bob.call("handover", WireClient.object().put("key", "id-handover").put("holder", "bob")
                .put("incarnation", "b1").put("revision", revision).put("to_holder", "bea").put("to_incarnation", "e1"));

        assertEquals(WireClient.json(answer), candidates.path("candidates").path(0), candidates.toString());
        assertTrue(handed.path("handed_over").asBoolean(), handed.toString());
        assertEquals("B", handed.path("account").asText(), handed.toString());
        long handedAt = handed.path("revision").asLong();
        io.nats.client.Message grant = grants.poll(5, java.util.concurrent.TimeUnit.SECONDS);
        org.junit.jupiter.api.Assertions.assertNotNull(grant, "no grant reached the successor's account");
        assertEquals(handed, WireClient.json(new String(grant.getData(), StandardCharsets.UTF_8)));
        JsonNode renewed = bea.call("renew", WireClient.object().put("key", "id-handover").put("holder", "bea")
                .put("incarnation", "e1").put("revision", handedAt));
        assertTrue(renewed.path("granted").asBoolean(), renewed.toString());
        assertKind("lost", bob.call("renew", WireClient.object().put("key", "id-handover").put("holder", "bob")
                .put("incarnation", "b1").put("revision", revision)));
    }
}
