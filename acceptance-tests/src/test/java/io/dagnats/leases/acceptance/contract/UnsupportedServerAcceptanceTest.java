package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On a server that cannot serve leases, dagnats still starts and every lease subject (the
 * operators' list and revoke too) answers unsupported.
 */
class UnsupportedServerAcceptanceTest {

    private static final List<String[]> CALLS = List.of(
            new String[] {"acquire", "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000}"},
            new String[] {"renew", "{\"key\":\"k\",\"holder\":\"h\",\"revision\":1}"},
            new String[] {"release", "{\"key\":\"k\",\"holder\":\"h\",\"revision\":1}"},
            new String[] {"owner", "{\"key\":\"k\"}"},
            new String[] {"owner", "not even json"},
            new String[] {"forward", "{\"key\":\"k\",\"payload\":\"\"}"},
            new String[] {"list", "{}"},
            new String[] {"list", "{\"page_size\":0}"},
            new String[] {"revoke", "{\"key\":\"k\",\"reason\":\"r\"}"});

    @Test
    void aServerOlderThan211AnswersUnsupportedAndGetsNoBucket() throws Exception {
        try (ServiceFixture service = ServiceFixture.with().server(NatsServerProcess::legacy).start()) {
            DagnatsServer dagnats = service.dagnats();
            WireClient client = service.client;
            BucketStatus.Unsupported status = assertInstanceOf(BucketStatus.Unsupported.class, dagnats.status());
            assertTrue(status.reason().contains("2.11"), status.reason());

            assertEveryCallUnsupported(client, "2.11");
            assertFalse(client.connection().jetStreamManagement().getStreamNames().contains("KV_leases"));
        }
    }

    @Test
    void aServerWithoutJetStreamAnswersUnsupported() throws Exception {
        try (ServiceFixture service = ServiceFixture.with().server(NatsServerProcess::withoutJetStream).start()) {
            DagnatsServer dagnats = service.dagnats();
            WireClient client = service.client;
            assertInstanceOf(BucketStatus.Unsupported.class, dagnats.status());

            assertEveryCallUnsupported(client, "JetStream");
        }
    }

    private static void assertEveryCallUnsupported(WireClient client, String reasonMentions) {
        for (String[] call : CALLS) {
            JsonNode reply = client.call(call[0], call[1]);
            assertEquals("unsupported", reply.path("kind").asText(), call[0] + ": " + reply);
            assertTrue(reply.path("error").asText().contains(reasonMentions), reply.toString());
        }
    }
}
