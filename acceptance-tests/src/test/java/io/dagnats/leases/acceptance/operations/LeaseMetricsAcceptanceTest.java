package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.FatJar;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Lease metrics as an operator reads them: in the log without a collector, and each event counted once. */
class LeaseMetricsAcceptanceTest {

    private static final List<String> EVENTS = List.of("acquired", "renewed", "released", "lost", "expired");
    /** Every line the service writes starts with its time: nothing written into the middle of another line. */
    private static final Pattern LOG_LINE = Pattern.compile("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z .*");

    @Test
    void consoleMetricsPutEveryLeaseEventInTheLogBesideTheOneStartLine() throws Exception {
        Path output = Files.createTempFile("dagnats-", ".log");
        try (NatsServerProcess nats = NatsServerProcess.modern();
                WireClient client = new WireClient(nats.url())) {
            Process dagnats = FatJar.command(Map.of("NATS_URL", nats.url(),
                            "OTEL_METRICS_EXPORTER", "console", "OTEL_METRIC_EXPORT_INTERVAL", "300"))
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            try {
                Polling.until(Duration.ofSeconds(30), "the start line", () -> read(output),
                        text -> text.contains("serving api.leases.*"));
                long revision = client.acquire("metered", "h", 15_000).path("revision").asLong();
                revision = client.renew("metered", "h", revision).path("revision").asLong();
                client.release("metered", "h", revision);
                assertEquals("lost", client.renew("metered", "h", revision).path("kind").asText());
                client.acquire("expiring", "h", 1_000);

                String log = Polling.until(Duration.ofSeconds(30), "a metric line with every lease event",
                        () -> read(output), text -> text.lines().anyMatch(
                                LeaseMetricsAcceptanceTest::countsEveryEvent));
                assertEquals(1, log.lines().filter(line -> line.contains("serving api.leases.*")).count(), log);
                assertTrue(log.contains("metrics: console"), "the start line names the exporter: " + log);
                log.lines().forEach(line -> assertTrue(LOG_LINE.matcher(line).matches(), "a broken line: " + line));
            } finally {
                dagnats.destroy();
                dagnats.waitFor(30, TimeUnit.SECONDS);
                dagnats.destroyForcibly();
            }
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static String read(Path output) {
        try {
            return Files.readString(output);
        } catch (IOException notYet) {
            return "";
        }
    }

    private static boolean countsEveryEvent(String line) {
        return line.contains("name=dagnats.lease.events")
                && EVENTS.stream().allMatch(event -> line.contains("dagnats.lease.event=\"" + event + "\""));
    }

    @Test
    void twoInstancesCountEachExpiryOnceAndAReleasedKeysTombstoneNotAtAll() throws Exception {
        int leases = 6;
        try (ServiceFixture service = ServiceFixture.with().environment(metered("metrics-a")).start();
                DagnatsServer second = service.startAnother(metered("metrics-b"))) {
            WireClient client = service.client;
            Subscription changes = client.connection().subscribe("dagnats.lease.changed.>");
            client.connection().flush(Duration.ofSeconds(5));
            for (int i = 0; i < leases; i++) {
                client.acquire("expiring-" + i, "h", 1_000);
            }
            long revision = client.acquire("released", "h", 15_000).path("revision").asLong();
            client.release("released", "h", revision);

            // The server marks each expiry, the tombstone's too (it expires after the 1 s marker TTL).
            int markers = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (markers < leases + 1 && System.nanoTime() < deadline) {
                Message change = changes.nextMessage(Duration.ofSeconds(1));
                if (change != null && "MaxAge".equals(change.getHeaders().getFirst("Nats-Marker-Reason"))) {
                    markers++;
                }
            }
            assertEquals(leases + 1, markers, "expiry markers seen");

            Polling.until(Duration.ofSeconds(30), "every expiry counted", () -> total("expired"),
                    expired -> expired >= leases);
            // Two more exports of each instance: a tombstone counted as an expiry would show by then.
            int firstExports = MemoryMetricExporterProvider.exports("metrics-a");
            int secondExports = MemoryMetricExporterProvider.exports("metrics-b");
            Polling.until(Duration.ofSeconds(30), "two more exports of each instance",
                    () -> MemoryMetricExporterProvider.exports("metrics-a") - firstExports >= 2
                            && MemoryMetricExporterProvider.exports("metrics-b") - secondExports >= 2,
                    more -> more);
            assertEquals(leases, total("expired"));
            assertEquals(leases + 1, total("acquired"));
            assertEquals(1, total("released"));
        }
    }

    @Test
    void everyInstanceReportsTheLeasesHeldAndTheirOwnersFromACensusOfTheBucket() throws Exception {
        try (ServiceFixture service = ServiceFixture.with().environment(metered("census-a")).start();
                DagnatsServer second = service.startAnother(metered("census-b"))) {
            WireClient client = service.client;
            client.acquire("shard-1", "alice", 15_000);
            client.acquire("shard-2", "alice", 15_000);
            client.acquire("shard-3", "bob", 15_000);
            long carols = client.acquire("shard-4", "carol", 15_000).path("revision").asLong();

            for (String instance : List.of("census-a", "census-b")) {
                Polling.until(Duration.ofSeconds(30), instance + " counting 4 leases of 3 owners",
                        () -> gauges(instance), List.of(4L, 3L)::equals);
            }

            client.release("shard-4", "carol", carols);
            for (String instance : List.of("census-a", "census-b")) {
                Polling.until(Duration.ofSeconds(30), instance + " counting 3 leases of 2 owners",
                        () -> gauges(instance), List.of(3L, 2L)::equals);
            }
        }
    }

    /** The lease gauges of one instance: leases held, then owners. */
    private static List<Long> gauges(String service) {
        return List.of(MemoryMetricExporterProvider.value(service, "dagnats.leases.held", null, null),
                MemoryMetricExporterProvider.value(service, "dagnats.lease.holders", null, null));
    }

    private static Map<String, String> metered(String serviceName) {
        return Map.of("OTEL_METRICS_EXPORTER", "memory",
                "OTEL_METRIC_EXPORT_INTERVAL", "100", "OTEL_SERVICE_NAME", serviceName,
                "DAGNATS_MARKER_TTL_SECONDS", "1");
    }

    /** One lease event summed over both instances, as a dashboard sums a counter. */
    private static long total(String event) {
        return MemoryMetricExporterProvider.value("metrics-a", "dagnats.lease.events", "dagnats.lease.event", event)
                + MemoryMetricExporterProvider.value("metrics-b", "dagnats.lease.events", "dagnats.lease.event", event);
    }
}
