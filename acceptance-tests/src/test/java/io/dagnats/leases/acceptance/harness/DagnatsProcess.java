package io.dagnats.leases.acceptance.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One dagnats, the fat JAR, as a process of its own that a test can kill -9 and start again:
 * what an in-process {@code DagnatsServer} cannot show is a restart that remembers nothing.
 * Every start appends its output to one log, which a test reads for dagnats' own account.
 */
public final class DagnatsProcess implements AutoCloseable {

    private static final Duration SERVING_WITHIN = Duration.ofSeconds(60);

    private final Map<String, String> environment;
    private final Path log;
    private Process process;

    private DagnatsProcess(Map<String, String> environment, Path log) {
        this.environment = environment;
        this.log = log;
    }

    /** Starts dagnats on the server at {@code natsUrl} and returns once it serves. */
    public static DagnatsProcess start(String natsUrl) {
        return start(Map.of("NATS_URL", natsUrl));
    }

    /** Starts dagnats with these environment variables (NATS_URL among them) and returns once it serves. */
    public static DagnatsProcess start(Map<String, String> environment) {
        try {
            DagnatsProcess dagnats = new DagnatsProcess(Map.copyOf(environment),
                    Files.createTempFile("dagnats-process-", ".log"));
            dagnats.startAgain();
            return dagnats;
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    /** Starts it (again, after a kill) and waits until this start says it serves. */
    public void startAgain() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("dagnats is still running");
        }
        try {
            Files.writeString(log, "--- start\n", StandardOpenOption.APPEND);
            long before = servingLines();
            process = FatJar.command(environment).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            Polling.until(SERVING_WITHIN, "dagnats to serve; its log: " + log, this::servingLines,
                    lines -> lines > before || !process.isAlive());
            if (!process.isAlive()) {
                throw new IllegalStateException("dagnats exited at start:\n" + tail(30));
            }
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    /** kill -9, and waits until the process is gone: nothing it remembered survives. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                throw new IllegalStateException("dagnats did not exit within 15 s of kill -9");
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    /**
     * SIGTERM, as an orchestrator stops it.
     *
     * @return how long it took to exit, when it exited within {@code within}; empty when it still runs
     */
    public java.util.Optional<Duration> terminate(Duration within) {
        long start = System.nanoTime();
        process.destroy();
        try {
            return process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)
                    ? java.util.Optional.of(Duration.ofNanos(System.nanoTime() - start)) : java.util.Optional.empty();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    private long servingLines() {
        return lines().stream().filter(line -> line.contains(" serving ")).count();
    }

    /** Every line dagnats wrote, of every start. */
    public List<String> lines() {
        try {
            return Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    /** Whether any line dagnats wrote satisfies {@code matches}. */
    public boolean logged(Predicate<String> matches) {
        return lines().stream().anyMatch(matches);
    }

    /** The last {@code count} lines, for a failure message. */
    public String tail(int count) {
        List<String> lines = lines();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }

    @Override
    public void close() {
        if (process != null) {
            kill();
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // a leftover temp file is harmless
        }
    }
}
