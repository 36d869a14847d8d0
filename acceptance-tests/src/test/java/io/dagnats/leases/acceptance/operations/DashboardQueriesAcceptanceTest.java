package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.DagnatsProcess;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.PrometheusProcess;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Dispatcher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every query of the shipped Grafana dashboard (docs/examples/grafana/dagnats-leases.json)
 * finds data in a real Prometheus scraping a real dagnats: a panel naming a metric or a label
 * dagnats does not export would stay empty on an operator's screen, and fails here instead,
 * naming the panel and the query.
 */
public class DashboardQueriesAcceptanceTest {

    /** What Grafana puts in place of its own variables; 4 scrape intervals is its $__rate_interval floor. */
    private static final Map<String, String> GRAFANA = Map.of(
            "__rate_interval", "5s", "__interval", "1s", "__range", "5m", "__range_s", "300");
    private static final Duration ALL_FOUND_WITHIN = Duration.ofSeconds(90);

    @TempDir
    Path directory;

    @Test
    void everyQueryOfTheDashboardFindsDataInPrometheusScrapingDagnats() throws Exception {
        GrafanaDashboard dashboard = GrafanaDashboard.read(Path.of(System.getProperty("dagnats.dashboard")));
        List<GrafanaDashboard.Query> queries = dashboard.queries();
        assertFalse(queries.isEmpty(), "the dashboard has queries");
        int httpPort = NatsServerProcess.freePort();
        try (NatsServerProcess nats = NatsServerProcess.modern();
                DagnatsProcess dagnats = DagnatsProcess.start(Map.of("NATS_URL", nats.url(),
                        "DAGNATS_HTTP_PORT", Integer.toString(httpPort), "OTEL_METRIC_EXPORT_INTERVAL", "500"));
                WireClient client = new WireClient(nats.url());
                PrometheusProcess prometheus = PrometheusProcess.scraping("127.0.0.1:" + httpPort, "dagnats", directory)) {
            long held = driveEverySeries(client);

            Map<GrafanaDashboard.Query, String> empty = new LinkedHashMap<>();
            queries.forEach(query -> empty.put(query, dashboard.promql(query, GRAFANA)));
            long deadline = System.nanoTime() + ALL_FOUND_WITHIN.toNanos();
            while (!empty.isEmpty() && System.nanoTime() < deadline) {
                // Requests keep coming, as on a live system: rates over the last seconds are not all zero.
                held = client.renew("dash-held", "owner-a", held).path("revision").asLong(held);
                empty.values().removeIf(promql -> prometheus.query(promql).path("result").size() > 0);
                Polling.pause();
            }
            List<String> found = new ArrayList<>();
            empty.forEach((query, promql) -> found.add(query + " (sent as " + promql + ") found nothing"));
            assertEquals(List.of(), found, "within " + ALL_FOUND_WITHIN + " of Prometheus scraping dagnats every"
                    + " second; Prometheus' log:\n" + prometheus.log() + "\ndagnats' log:\n" + dagnats.tail(20));
        }
    }

    /**
     * Acquire, renew, owner, release, a forward its owner answers and a lease left to expire:
     * every series the dashboard reads then exists.
     *
     * @return the revision of the lease {@code owner-a} keeps holding
     */
    private static long driveEverySeries(WireClient client) throws Exception {
        Dispatcher owner = client.connection().createDispatcher(request ->
                client.connection().publish(request.getReplyTo(), "pong".getBytes(StandardCharsets.UTF_8)));
        owner.subscribe("dagnats.lease.inbox.owner-a.>");
        client.connection().flush(Duration.ofSeconds(5));
        long held = client.acquire("dash-held", "owner-a", 60_000).path("revision").asLong();
        held = client.renew("dash-held", "owner-a", held).path("revision").asLong();
        client.owner("dash-held");
        long released = client.acquire("dash-released", "owner-b", 60_000).path("revision").asLong();
        client.release("dash-released", "owner-b", released);
        client.acquire("dash-expiring", "owner-c", 1_000);
        JsonNode forwarded = client.call("forward", WireClient.object().put("key", "dash-held")
                .put("payload", Base64.getEncoder().encodeToString("ping".getBytes(StandardCharsets.UTF_8)))
                .put("timeout_ms", 5_000));
        assertEquals("pong", new String(Base64.getDecoder().decode(forwarded.path("payload").asText()),
                StandardCharsets.UTF_8), "the owner answered the forward: " + forwarded);
        return held;
    }
}
