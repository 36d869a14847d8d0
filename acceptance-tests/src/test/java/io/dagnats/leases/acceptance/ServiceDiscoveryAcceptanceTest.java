package io.dagnats.leases.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The lease subjects are one NATS micro service, discoverable with $SRV. */
class ServiceDiscoveryAcceptanceTest extends SharedServiceTest {


    @Test
    void infoListsTheLeaseEndpointsInTheQueueGroup() throws Exception {
        JsonNode info = WireClient.parse(
                client.connection().request("$SRV.INFO.dagnats-api", new byte[0], Duration.ofSeconds(5)));

        assertEquals("dagnats-api", info.path("name").asText(), info.toString());
        Map<String, String> queueGroups = new TreeMap<>();
        for (JsonNode endpoint : info.path("endpoints")) {
            queueGroups.put(endpoint.path("subject").asText(), endpoint.path("queue_group").asText());
        }
        assertEquals(Map.of(
                "api.leases.acquire", "dagnats-leases",
                "api.leases.renew", "dagnats-leases",
                "api.leases.release", "dagnats-leases",
                "api.leases.owner", "dagnats-leases",
                "api.leases.forward", "dagnats-leases"), queueGroups);
    }

    @Test
    void pingAnswersWithTheServiceName() throws Exception {
        JsonNode ping = WireClient.parse(
                client.connection().request("$SRV.PING.dagnats-api", new byte[0], Duration.ofSeconds(5)));
        assertEquals("dagnats-api", ping.path("name").asText(), ping.toString());
    }
}
