package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.JetStreamManagement;
import io.nats.client.Message;
import io.nats.client.api.StreamConfiguration;
import io.nats.service.Discovery;
import io.nats.service.InfoResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The service metadata says whether leases are served, and why not, as it is
 * when asked: on an old server, and when the bucket changes under a running
 * service.
 */
class ServiceMetadataAcceptanceTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    private static InfoResponse info(WireClient client) {
        List<InfoResponse> infos = new Discovery(client.connection(), WAIT.toMillis(), 1).info("dagnats-api");
        assertEquals(1, infos.size(), infos.toString());
        return infos.get(0);
    }

    @Test
    void onAServerOlderThan211InfoSaysLeasesAreUnsupportedAndWhy() throws Exception {
        try (ServiceFixture service = ServiceFixture.with().server(NatsServerProcess::legacy).start()) {
            WireClient client = service.client;
            Map<String, String> metadata = info(client).getMetadata();

            assertEquals("false", metadata.get("leases_supported"), metadata.toString());
            assertTrue(metadata.get("unsupported_reason").contains("2.11"), metadata.toString());
            assertTrue(metadata.get("nats_server_version").startsWith("2.9."), metadata.toString());
            assertEquals("leases", metadata.get("bucket"));

            Message refused = client.connection().request("api.leases.owner",
                    "{\"key\":\"k\"}".getBytes(StandardCharsets.UTF_8), WAIT);
            assertEquals("501", refused.getHeaders().getFirst("Nats-Service-Error-Code"));
            assertEquals(WireClient.parse(refused).path("error").asText(),
                    refused.getHeaders().getFirst("Nats-Service-Error"));
        }
    }

    @Test
    void infoFollowsTheBucketWhenItStopsBeingSafeWhileServing() throws Exception {
        try (ServiceFixture service = ServiceFixture.start()) {
            assertEquals("true", info(service.client).getMetadata().get("leases_supported"));

            JetStreamManagement management = service.client.connection().jetStreamManagement();
            StreamConfiguration bucket = management.getStreamInfo("KV_leases").getConfiguration();
            management.updateStream(StreamConfiguration.builder(bucket)
                    .maxAge(Duration.ofSeconds(2)).duplicateWindow(Duration.ofSeconds(1)).build());

            Map<String, String> metadata = Polling.until(Duration.ofSeconds(15), "info to say leases are unsupported",
                    () -> info(service.client).getMetadata(),
                    seen -> "false".equals(seen.get("leases_supported")));
            assertTrue(metadata.get("unsupported_reason").contains("max_age"), metadata.toString());
            assertFalse(metadata.get("nats_server_version").isBlank(), metadata.toString());
        }
    }
}
