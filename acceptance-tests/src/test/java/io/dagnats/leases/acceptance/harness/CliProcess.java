package io.dagnats.leases.acceptance.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The operator CLI as an operator runs it: {@code java -jar dagnats.jar leases ...},
 * a process of its own with {@code NATS_URL} set, its stdout and stderr kept
 * apart. One-shot commands {@link #run}; a watch is {@link #start}ed, read
 * while it runs, and stopped with a signal.
 */
public final class CliProcess implements AutoCloseable {

    /** What a finished command left: its exit code, stdout and stderr. */
    public record Result(int exitCode, String out, String err) {

        public List<String> outLines() {
            return out.lines().toList();
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private final Process process;
    private final Path out;
    private final Path err;

    private CliProcess(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /** Runs {@code dagnats args...} against {@code natsUrl} to its end (a minute at most). */
    public static Result run(String natsUrl, String... args) {
        return run(Map.of("NATS_URL", natsUrl), args);
    }

    /** Runs {@code dagnats args...} with {@code environment}'s settings to its end (a minute at most). */
    public static Result run(Map<String, String> environment, String... args) {
        try (CliProcess cli = start(environment, args)) {
            if (!cli.process.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("dagnats " + String.join(" ", args) + " did not finish within 60 s: "
                        + cli.out() + cli.err());
            }
            return new Result(cli.process.exitValue(), cli.out(), cli.err());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    public static CliProcess start(String natsUrl, String... args) {
        return start(Map.of("NATS_URL", natsUrl), args);
    }

    public static CliProcess start(Map<String, String> environment, String... args) {
        try {
            Path out = Files.createTempFile("dagnats-cli-", ".out");
            Path err = Files.createTempFile("dagnats-cli-", ".err");
            Process process = FatJar.command(environment, args)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            return new CliProcess(process, out, err);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    public String out() {
        return read(out);
    }

    /** {@code kill -9}: the process ends without a chance to clean up; what it wrote stays readable. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new AssertionError("dagnats outlived kill -9 for 10 s");
        }
    }

    public String err() {
        return read(err);
    }

    /** Waits until stdout satisfies {@code done}, failing with both streams when it does not in time. */
    public String awaitOut(Duration limit, String what, Predicate<String> done) {
        return await(limit, what, this::out, done);
    }

    /** Waits until stderr satisfies {@code done} (the watch says there when it is watching). */
    public String awaitErr(Duration limit, String what, Predicate<String> done) {
        return await(limit, what, this::err, done);
    }

    private String await(Duration limit, String what, Supplier<String> stream, Predicate<String> done) {
        return Polling.until(limit, what, () -> {
            if (!process.isAlive() && !done.test(stream.get())) {
                throw new AssertionError("dagnats exited " + process.exitValue() + " before " + what + ": " + out() + err());
            }
            return stream.get();
        }, done);
    }

    /** Sends a signal by name ({@code INT}, {@code TERM}), as Ctrl-C or a service manager would. */
    public void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    /** Waits for the process to end and returns what it left. */
    public Result awaitExit(Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("dagnats did not exit within " + limit + ": " + out() + err());
        }
        return new Result(process.exitValue(), out(), err());
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        try {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        } catch (IOException ignored) {
            // a leftover temp file is harmless
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }
}
