package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.bootstrap.DagnatsServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;

/** Two dagnats instances in the queue group, 100 acquirers of one key at once: exactly one wins. */
class ConcurrentAcquireAcceptanceTest {

    @RepeatedTest(3)
    void exactlyOneOfAHundredConcurrentAcquirersIsGranted() throws Exception {
        try (ServiceFixture service = ServiceFixture.start();
                DagnatsServer second = service.startAnother()) {
            WireClient client = service.client;
            List<CompletableFuture<JsonNode>> calls = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                calls.add(client.callAsync("acquire",
                        "{\"key\":\"contended\",\"holder\":\"holder-" + i + "\",\"ttl_ms\":30000}"));
            }
            CompletableFuture.allOf(calls.toArray(new CompletableFuture[0])).get(30, TimeUnit.SECONDS);

            List<JsonNode> granted = new ArrayList<>();
            for (CompletableFuture<JsonNode> call : calls) {
                JsonNode reply = call.join();
                assertFalse(reply.has("error"), reply.toString());
                if (reply.path("granted").asBoolean()) {
                    granted.add(reply);
                }
            }
            assertEquals(1, granted.size(), "granted: " + granted);
            JsonNode winner = granted.get(0);
            for (CompletableFuture<JsonNode> call : calls) {
                JsonNode reply = call.join();
                assertEquals(winner.path("holder"), reply.path("holder"), reply.toString());
                assertEquals(winner.path("revision"), reply.path("revision"), reply.toString());
            }
            assertEquals(winner.path("holder"), client.owner("contended").path("holder"));
        }
    }
}
