package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code dagnats status}: the instances micro discovery finds, the bucket, the live leases. */
class StatusCommandAcceptanceTest {

    @Test
    void statusShowsTheInstanceTheBucketAndTheLiveLeases() throws Exception {
        try (ServiceFixture service = ServiceFixture.start()) {
            WireClient client = service.client;
            client.acquire("status-1", "h", 60_000);
            client.acquire("status-2", "h", 60_000);
            long third = client.acquire("status-3", "h", 60_000).path("revision").asLong();
            client.release("status-3", "h", third);
            JsonNode info = WireClient.parse(
                    client.connection().request("$SRV.INFO.dagnats-api", new byte[0], Duration.ofSeconds(5)));
            String id = info.path("id").asText();

            CliProcess.Result table = CliProcess.run(service.nats.url(), "status");
            CliProcess.Result json = CliProcess.run(service.nats.url(), "status", "-o", "json");

            assertEquals(0, table.exitCode(), table.toString());
            String instanceRow = table.outLines().stream().filter(line -> line.startsWith(id)).findFirst()
                    .orElseThrow(() -> new AssertionError("no row for instance " + id + ": " + table));
            assertTrue(instanceRow.matches(id + "\\s+" + java.util.regex.Pattern.quote(BuildVersion.expected())
                    + "\\s+.*\\s+\\d+s\\s+\\d+\\s+\\d+"), instanceRow);
            assertTrue(table.out().contains("1 dagnats-api instance\n"), table.toString());
            // The label column is as wide as the longest label, metadata keys (dagnats.identity) included.
            assertTrue(table.outLines().stream().anyMatch(line -> line.matches("bucket\\s+leases \\(stream KV_leases\\)")),
                    table.toString());
            assertTrue(table.outLines().stream().anyMatch(line -> line.matches("dagnats\\.identity\\s+off")),
                    table.toString());
            assertTrue(table.outLines().stream().anyMatch(line -> line.matches("replicas\\s+1 \\(leader .*\\)")),
                    table.toString());
            assertTrue(table.outLines().stream().anyMatch(line -> line.matches("per-message TTL\\s+on")), table.toString());
            assertTrue(table.outLines().stream().anyMatch(line -> line.matches("durability\\s+file storage on 1 server: .*"
                    + "only with sync_interval: always there \\(a server setting dagnats cannot read\\)")), table.toString());
            assertTrue(table.out().contains("live leases: 2\n"), table.toString());

            assertEquals(0, json.exitCode(), json.toString());
            JsonNode status = WireClient.JSON.readTree(json.out());
            JsonNode instance = status.path("instances").get(0);
            assertEquals(id, instance.path("id").asText(), status.toString());
            assertEquals(BuildVersion.expected(), instance.path("version").asText());
            assertTrue(instance.path("requests").asLong() >= 4, instance.toString());
            assertTrue(instance.path("uptime_ms").asLong() > 0, instance.toString());
            JsonNode metadata = instance.path("metadata");
            if (metadata.has("nats_server_version")) {
                assertTrue(metadata.path("nats_server_version").asText().startsWith("2."), metadata.toString());
                assertTrue(instanceRow.contains(metadata.path("nats_server_version").asText()), instanceRow);
            }
            assertEquals(1, status.path("bucket").path("replicas").asInt(), status.toString());
            assertEquals(1, status.path("bucket").path("history").asInt());
            assertTrue(status.path("bucket").path("durability").asText().contains("sync_interval: always"), status.toString());
            assertEquals(2, status.path("live_leases").asInt());
        }
    }

    @Test
    void withoutDagnatsStatusSaysSoOnOneLineAndExitsOne() {
        try (NatsServerProcess bare = NatsServerProcess.modern()) {
            CliProcess.Result status = CliProcess.run(bare.url(), "status");

            assertEquals(1, status.exitCode(), status.toString());
            assertEquals(1, status.err().lines().count(), status.toString());
            assertTrue(status.err().startsWith("dagnats: no dagnats service answered"), status.toString());
            assertTrue(status.out().contains("no dagnats-api instances"), status.toString());
        }
    }
}
