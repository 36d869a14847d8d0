package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.FatJar;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.TerminalSignals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The README's {@code scripts/run.sh} as an operator starts it from a terminal:
 * its own session and process group (so a signal to the group is what Ctrl-C
 * sends), without NATS_URL, so it starts its own nats-server, here on a free
 * port with a store in a temp directory. Everything of the run is killed and
 * the directory removed on close.
 */
final class RunScript implements AutoCloseable {

    private final Process script;
    private final Path directory;
    private final Path output;
    private final int port;

    private RunScript(Process script, Path directory, Path output, int port) {
        this.script = script;
        this.directory = directory;
        this.output = output;
        this.port = port;
    }

    /** Starts the script; {@code environment} is added to a clean one (no NATS_, DAGNATS_, OTEL_ settings). */
    static RunScript start(Map<String, String> environment) throws IOException {
        Path root = FatJar.path().toAbsolutePath().normalize().getParent().getParent().getParent();
        Path runSh = root.resolve("scripts").resolve("run.sh");
        assertTrue(Files.isExecutable(runSh), "no executable " + runSh);
        Path directory = Files.createTempDirectory("dagnats-run-");
        Path output = directory.resolve("run.out");
        int port = NatsServerProcess.freePort();
        ProcessBuilder builder = new ProcessBuilder(TerminalSignals.atDefaults(List.of("setsid", runSh.toString())))
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("NATS_") || name.startsWith("DAGNATS_")
                || name.startsWith("OTEL_") || name.startsWith("LOCAL_NATS_"));
        builder.environment().put("NATS_SERVER_BIN", NatsServerProcess.binary("nats.server.bin"));
        builder.environment().put("LOCAL_NATS_PORT", Integer.toString(port));
        builder.environment().put("LOCAL_NATS_DIR", directory.resolve("data").toString());
        builder.environment().putAll(environment);
        RunScript run = new RunScript(builder.start(), directory, output, port);
        Polling.until(Duration.ofSeconds(5), "run.sh leading its own process group",
                run::processGroup, group -> group == run.script.pid());
        return run;
    }

    String natsUrl() {
        return "nats://127.0.0.1:" + port;
    }

    String output() {
        try {
            return Files.readString(output);
        } catch (IOException notYet) {
            return "";
        }
    }

    /** Waits until the output holds {@code text} (failing at once if the script exits first). */
    void awaitOutput(Duration limit, String text) {
        String seen = Polling.until(limit, "\"" + text + "\" in the output of run.sh", this::output,
                sofar -> sofar.contains(text) || !script.isAlive());
        assertTrue(output().contains(text), "run.sh exited before writing \"" + text + "\": " + seen);
    }

    /** The run's java and nats-server processes, as the script started them. */
    List<ProcessHandle> servers() {
        List<ProcessHandle> servers = script.descendants()
                .filter(process -> commandLine(process).contains("dagnats.jar")
                        || commandLine(process).contains("nats-server"))
                .toList();
        assertEquals(2, servers.size(), "run.sh should have started java and nats-server: " + servers);
        return servers;
    }

    /** Ctrl-C in the terminal: SIGINT to every process of the foreground process group. */
    void interruptGroup() {
        assertEquals(0, kill("-INT", "--", "-" + script.pid()), "kill -INT failed");
    }

    /** SIGTERM to the script alone, as a process manager stops it. */
    void terminate() {
        script.destroy();
    }

    int awaitExit(Duration limit) throws InterruptedException {
        assertTrue(script.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS),
                "run.sh did not exit within " + limit + ": " + output());
        return script.exitValue();
    }

    /** What of the run still lives: the given processes, and any process naming the run's directory (its nats-server). */
    List<ProcessHandle> leftOf(List<ProcessHandle> started) {
        List<ProcessHandle> alive = new ArrayList<>(started.stream().filter(ProcessHandle::isAlive).toList());
        ProcessHandle.allProcesses()
                .filter(process -> commandLine(process).contains(directory.toString()))
                .filter(process -> !alive.contains(process))
                .forEach(alive::add);
        return alive;
    }

    private long processGroup() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(script.pid()), "stat"));
            // pid (comm) state ppid pgrp ...: comm may hold spaces, so count from its closing parenthesis.
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2]);
        } catch (IOException gone) {
            return -1;
        }
    }

    private static String commandLine(ProcessHandle process) {
        return process.info().commandLine().orElse("");
    }

    private static int kill(String... arguments) {
        List<String> command = new ArrayList<>(List.of("kill"));
        command.addAll(List.of(arguments));
        try {
            return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start().waitFor();
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    @Override
    public void close() throws InterruptedException {
        List<ProcessHandle> left = leftOf(script.descendants().toList());
        kill("-KILL", "--", "-" + script.pid()); // the script and its java, if still there
        left.forEach(ProcessHandle::destroyForcibly);
        script.waitFor(10, TimeUnit.SECONDS);
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp directory is harmless
        }
    }
}
