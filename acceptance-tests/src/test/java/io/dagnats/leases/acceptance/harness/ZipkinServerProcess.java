package io.dagnats.leases.acceptance.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A real Zipkin server (in-memory storage) on a free port, for the length of one test class. */
public final class ZipkinServerProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path log;
    private final HttpClient http = HttpClient.newHttpClient();

    private ZipkinServerProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    public static ZipkinServerProcess start() {
        String jar = System.getProperty("zipkin.jar", "");
        if (jar.isBlank() || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("system property zipkin.jar must name zipkin-server's exec JAR "
                    + "(mvn verify copies it to acceptance-tests/target/zipkin)");
        }
        try {
            int port = NatsServerProcess.freePort();
            Path log = Files.createTempFile("zipkin-", ".log");
            ProcessBuilder builder = new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx384m", "-jar", jar)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().put("QUERY_PORT", Integer.toString(port));
            builder.environment().put("STORAGE_TYPE", "mem");
            ZipkinServerProcess zipkin = new ZipkinServerProcess(builder.start(), port, log);
            Polling.until(Duration.ofSeconds(120), "Zipkin to answer /health", zipkin::healthy, healthy -> healthy);
            return zipkin;
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    public String spansEndpoint() {
        return "http://127.0.0.1:" + port + "/api/v2/spans";
    }

    /** The trace's spans as Zipkin's v2 JSON, or "[]"-like text while it has none. */
    public String trace(String traceId) {
        return get("/api/v2/trace/" + traceId);
    }

    private boolean healthy() {
        if (!process.isAlive()) {
            throw new IllegalStateException("Zipkin exited: " + read());
        }
        return get("/health").contains("UP");
    }

    private String get(String path) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : "";
        } catch (IOException notYet) {
            return "";
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private String read() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException failed) {
            return "";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // a leftover log is harmless
        }
    }
}
