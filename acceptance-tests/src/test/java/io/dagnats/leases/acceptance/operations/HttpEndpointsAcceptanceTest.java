package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.FatJar;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Probes and the Prometheus scrape over HTTP, as a kubelet and a Prometheus
 * server see them: the fat JAR run with {@code serve} and {@code DAGNATS_HTTP_PORT},
 * a real nats-server stopped under it, a scrape read by Prometheus' own parser.
 */
public class HttpEndpointsAcceptanceTest {

    private static final Pattern HTTP_IN_START_LINE = Pattern.compile("probes and metrics on (http://127\\.0\\.0\\.1:\\d+) ");
    private static final List<Double> BOUNDARIES = List.of(0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5,
            0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, Double.POSITIVE_INFINITY);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void probesFollowTheServiceAndAScrapeHoldsTheLeaseCallsInPrometheusTerms() throws Exception {
        Path output = Files.createTempFile("dagnats-", ".log");
        NatsServerProcess nats = NatsServerProcess.modern();
        try (WireClient client = new WireClient(nats.url())) {
            Process dagnats = FatJar.command(Map.of("NATS_URL", nats.url(), "DAGNATS_HTTP_PORT", "0"), "serve")
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            try {
                String log = Polling.until(Duration.ofSeconds(30), "the start line", () -> read(output),
                        text -> text.contains("serving api.leases.*"));
                assertTrue(log.contains("dagnats " + BuildVersion.expected()), "the start line names the version: " + log);
                Matcher http = HTTP_IN_START_LINE.matcher(log);
                assertTrue(http.find(), "the start line names where HTTP listens: " + log);
                // Issue 29: a short start line (version, server, mode, verdict); the details on the next line.
                String startLine = log.lines().filter(line -> line.contains("serving api.leases.*")).findFirst()
                        .orElseThrow();
                String said = startLine.substring(startLine.indexOf("dagnats "));
                assertTrue(said.length() <= 240, said.length() + " characters: " + said);
                assertTrue(said.contains("nats-server ") && said.contains("identity mode off")
                        && said.endsWith("leases supported; probes and metrics on " + http.group(1)
                                + " (details: the next line, and dagnats status)"), said);
                String details = Polling.until(Duration.ofSeconds(30), "the details line", () -> read(output),
                        text -> text.contains("dagnats: details: "));
                assertTrue(details.contains("(/livez, /readyz, /metrics)") && details.contains("replicas 1"), details);
                String base = http.group(1);

                assertEquals(new Answer(200, "live\n"), get(base + "/livez"));
                Answer ready = get(base + "/readyz");
                assertEquals(200, ready.status(), ready.toString());
                assertEquals("ready: leases supported\n", ready.body(), "issue 29: a short /readyz body");

                long revision = client.acquire("scraped", "h", 15_000).path("revision").asLong();
                for (int i = 0; i < 5; i++) {
                    revision = client.renew("scraped", "h", revision).path("revision").asLong();
                }
                client.call("owner", "{\"key\":\"scraped\"}");
                client.release("scraped", "h", revision);
                assertScrapeCounts(get(base + "/metrics"));

                nats.close();
                Answer disconnected = Polling.until(Duration.ofSeconds(30), "/readyz answering 503",
                        () -> get(base + "/readyz"), answer -> answer.status() == 503);
                assertTrue(disconnected.body().startsWith("not ready: not connected to NATS ("), disconnected.body());
                assertEquals(new Answer(200, "live\n"), get(base + "/livez"));

                dagnats.destroy(); // SIGTERM
                assertTrue(dagnats.waitFor(30, TimeUnit.SECONDS), "dagnats did not exit after SIGTERM");
                assertEquals(0, dagnats.exitValue(), read(output));
            } finally {
                dagnats.destroyForcibly();
            }
        } finally {
            nats.close();
            Files.deleteIfExists(output);
        }
    }

    private static void assertScrapeCounts(Answer scrape) throws Exception {
        assertEquals(200, scrape.status(), scrape.toString());
        List<PrometheusParser.Family> families = PrometheusParser.parse(scrape.body());

        PrometheusParser.Family requests = PrometheusParser.family(families, "dagnats_lease_requests")
                .orElseThrow(() -> new AssertionError("no dagnats_lease_requests in " + scrape.body()));
        assertEquals("counter", requests.type());
        assertEquals(5.0, requests.samples().stream()
                .filter(sample -> sample.name().equals("dagnats_lease_requests_total"))
                .filter(sample -> "renew".equals(sample.labels().get("dagnats_lease_operation")))
                .mapToDouble(PrometheusParser.Sample::value).sum(), scrape.body());

        PrometheusParser.Family duration = PrometheusParser.family(families, "dagnats_lease_request_duration_seconds")
                .orElseThrow(() -> new AssertionError("no dagnats_lease_request_duration_seconds in " + scrape.body()));
        assertEquals("histogram", duration.type());
        List<PrometheusParser.Sample> renews = duration.samples().stream()
                .filter(sample -> "renew".equals(sample.labels().get("dagnats_lease_operation"))).toList();
        Set<Double> boundaries = renews.stream().filter(sample -> sample.name().endsWith("_bucket"))
                .map(sample -> le(sample.labels().get("le"))).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(BOUNDARIES), boundaries, "the latency boundaries, 50 µs to 10 s");
        double count = value(renews, "dagnats_lease_request_duration_seconds_count", null);
        assertEquals(5.0, count, scrape.body());
        assertEquals(count, value(renews, "dagnats_lease_request_duration_seconds_bucket", "10.0"),
                "every renew took under 10 s");

        PrometheusParser.Family events = PrometheusParser.family(families, "dagnats_lease_events")
                .orElseThrow(() -> new AssertionError("no dagnats_lease_events in " + scrape.body()));
        assertTrue(events.samples().stream().anyMatch(sample -> "acquired".equals(sample.labels().get("dagnats_lease_event"))
                && sample.value() >= 1), scrape.body());
    }

    private static double value(List<PrometheusParser.Sample> samples, String name, String le) {
        return samples.stream().filter(sample -> sample.name().equals(name))
                .filter(sample -> le == null || le(sample.labels().get("le")) == Double.parseDouble(le))
                .mapToDouble(PrometheusParser.Sample::value).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + (le == null ? "" : " le=" + le) + " in " + samples));
    }

    private static double le(String bound) {
        return "+Inf".equals(bound) ? Double.POSITIVE_INFINITY : Double.parseDouble(bound);
    }

    @Test
    void onAServerOlderThan211TheServiceIsReadyAndSaysWhyLeasesAreUnsupported() throws Exception {
        try (ServiceFixture service = ServiceFixture.with().server(NatsServerProcess::legacy)
                .environment("DAGNATS_HTTP_PORT", "0").start()) {
            DagnatsServer dagnats = service.dagnats();
            String base = "http://127.0.0.1:" + dagnats.httpAddress().orElseThrow().getPort();

            Answer ready = get(base + "/readyz");

            assertEquals(200, ready.status(), ready.toString());
            assertTrue(ready.body().startsWith("ready: leases unsupported: "), ready.body());
            assertTrue(ready.body().contains("2.11"), ready.body());
        }
    }

    @Test
    void aPortInUseStopsTheStartWithOneSentenceNamingTheSettings() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> DagnatsServer.start(
                    Settings.fromEnvironment(Map.of("NATS_URL", "nats://127.0.0.1:1", "DAGNATS_HTTP_PORT",
                            Integer.toString(port)))));

            assertTrue(refused.getMessage().startsWith("cannot serve HTTP on 127.0.0.1:" + port
                    + " (DAGNATS_HTTP_ADDRESS, DAGNATS_HTTP_PORT): "), refused.getMessage());
        }
    }

    /** A status code and a body. */
    public record Answer(int status, String body) {
    }

    /** What {@code url} answers to a GET; status -1 when nothing answers. */
    public static Answer get(String url) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException unreachable) {
            return new Answer(-1, unreachable.toString());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    private static String read(Path output) {
        try {
            return Files.readString(output);
        } catch (IOException notYet) {
            return "";
        }
    }
}
