package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.FatJar;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every name in a real dagnats /metrics scrape is one Prometheus' own linter
 * accepts ({@code promtool check metrics}, from Debian's prometheus package as
 * scripts/promtool.sh installs it; system property {@code promtool}), and the
 * scrape holds the JVM's memory and CPU beside dagnats' lease metrics.
 */
public class MetricNamesAcceptanceTest {

    private static final Pattern HTTP_IN_START_LINE = Pattern.compile("probes and metrics on (http://127\\.0\\.0\\.1:\\d+) ");

    @Test
    void promtoolFindsNothingToSayAboutAScrapeWithLeasesAndTheJvm() throws Exception {
        Path output = Files.createTempFile("dagnats-", ".log");
        try (NatsServerProcess nats = NatsServerProcess.modern(); WireClient client = new WireClient(nats.url())) {
            Process dagnats = FatJar.command(Map.of("NATS_URL", nats.url(), "DAGNATS_HTTP_PORT", "0",
                    "OTEL_METRIC_EXPORT_INTERVAL", "500"), "serve")
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            try {
                String log = Polling.until(Duration.ofSeconds(30), "the start line", () -> read(output),
                        text -> text.contains("serving api.leases.*"));
                Matcher http = HTTP_IN_START_LINE.matcher(log);
                assertTrue(http.find(), "the start line names where HTTP listens: " + log);
                long revision = client.acquire("linted", "h", 15_000).path("revision").asLong();
                client.renew("linted", "h", revision);

                // Every family there is, the census gauges included (they wait for the first census).
                String scrape = Polling.until(Duration.ofSeconds(30), "a scrape with the census gauges",
                        () -> HttpEndpointsAcceptanceTest.get(http.group(1) + "/metrics").body(),
                        body -> body.contains("\ndagnats_leases_held{") && body.contains("\ndagnats_lease_holders{"));

                assertEquals("", promtoolComplaints(scrape), scrape);
                assertTrue(scrape.contains("\ndagnats_lease_requests_total{"), scrape);
                assertTrue(scrape.contains("\njvm_memory_used_bytes{"), "the JVM's memory: " + scrape);
                assertTrue(scrape.contains("\njvm_cpu_time_seconds_total"), "the process' CPU time: " + scrape);
            } finally {
                dagnats.destroyForcibly();
                dagnats.waitFor(30, TimeUnit.SECONDS);
            }
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** What {@code promtool check metrics} says about {@code exposition}: nothing when it accepts every name. */
    private static String promtoolComplaints(String exposition) throws IOException, InterruptedException {
        String promtool = System.getProperty("promtool", "");
        if (promtool.isBlank() || promtool.startsWith("${")) {
            throw new IllegalStateException("system property promtool must name Prometheus' promtool;"
                    + " run the tests with scripts/test.sh, which installs it (scripts/promtool.sh)");
        }
        Process check = new ProcessBuilder(List.of(promtool, "check", "metrics")).redirectErrorStream(true).start();
        try (OutputStream in = check.getOutputStream()) {
            in.write(exposition.getBytes(StandardCharsets.UTF_8));
        }
        String said = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(check.waitFor(60, TimeUnit.SECONDS), "promtool did not finish");
        return check.exitValue() == 0 ? said : "exit " + check.exitValue() + ": " + said;
    }

    private static String read(Path output) {
        try {
            return Files.readString(output);
        } catch (IOException notYet) {
            return "";
        }
    }
}
