package io.dagnats.leases.acceptance.harness;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server (Debian's, as scripts/prometheus.sh finds it; system
 * property {@code prometheus}) scraping one target every second, its storage and
 * log in a directory of the test's, on a free loopback port. What a dashboard
 * shows is what this server's query API answers, so a dashboard is checked here
 * rather than against a parser of our own.
 */
public final class PrometheusProcess implements AutoCloseable {

    private static final Duration READY_WITHIN = Duration.ofSeconds(60);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final Path log;
    private final String url;

    private PrometheusProcess(Process process, Path log, String url) {
        this.process = process;
        this.log = log;
        this.url = url;
    }

    /**
     * Starts Prometheus scraping {@code target} ({@code host:port}, path /metrics) under job
     * {@code job}, and returns once it says it is ready.
     */
    public static PrometheusProcess scraping(String target, String job, Path directory) throws IOException {
        Path config = directory.resolve("prometheus.yml");
        Files.writeString(config, String.join("\n",
                "global:",
                "  scrape_interval: 1s",
                "  evaluation_interval: 1s",
                "scrape_configs:",
                "  - job_name: " + job,
                "    static_configs:",
                "      - targets: ['" + target + "']",
                ""));
        int port = NatsServerProcess.freePort();
        Path log = directory.resolve("prometheus.log");
        Process process = new ProcessBuilder(List.of(binary(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + directory.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        PrometheusProcess prometheus = new PrometheusProcess(process, log, "http://127.0.0.1:" + port);
        try {
            Polling.until(READY_WITHIN, "Prometheus to be ready; its log: " + log, prometheus::ready,
                    ready -> ready || !process.isAlive());
            if (!process.isAlive()) {
                throw new IllegalStateException("Prometheus exited at start: " + Files.readString(log));
            }
            return prometheus;
        } catch (RuntimeException | IOException failed) {
            prometheus.close();
            throw failed;
        }
    }

    private static String binary() {
        String binary = System.getProperty("prometheus", "");
        if (binary.isBlank() || binary.startsWith("${")) {
            throw new IllegalStateException("system property prometheus must name a Prometheus server binary;"
                    + " run the tests with scripts/test.sh, which installs it (scripts/prometheus.sh)");
        }
        return binary;
    }

    private boolean ready() {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url + "/-/ready")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    /**
     * The instant query's answer, {@code data} of /api/v1/query: its {@code result} is empty when
     * the expression found no series.
     *
     * @throws AssertionError when Prometheus refuses the expression (a PromQL error), saying why
     */
    public JsonNode query(String expression) {
        try {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/query?query="
                    + URLEncoder.encode(expression, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body = WireClient.json(answer.body());
            if (!"success".equals(body.path("status").asText())) {
                throw new AssertionError("Prometheus refused " + expression + ": " + answer.body());
            }
            return body.path("data");
        } catch (IOException unreachable) {
            throw new UncheckedIOException(unreachable);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    /** Stops it (SIGTERM, then kill -9 if it lingers) and waits until it is gone. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(15, TimeUnit.SECONDS);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Its log, for a failure message. */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException unreadable) {
            return "(unreadable: " + unreadable + ")";
        }
    }
}
