package io.dagnats.leases.acceptance.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real nats-server for one test class: its own free port, its own store
 * directory, stopped (and its directory removed) on close. It can be stopped
 * (SIGTERM) or killed (SIGKILL) and started again on the same port and store.
 */
public final class NatsServerProcess implements AutoCloseable {

    private volatile Process process;
    private final List<String> command;
    private final int port;
    private final Path storeDirectory;
    private final Path log;

    private NatsServerProcess(Process process, List<String> command, int port, Path storeDirectory, Path log) {
        this.process = process;
        this.command = command;
        this.port = port;
        this.storeDirectory = storeDirectory;
        this.log = log;
    }

    /** A server of 2.11 or newer with JetStream. */
    public static NatsServerProcess modern(String... extraArguments) {
        return start(binary("nats.server.bin"), true, extraArguments);
    }

    /** A server older than 2.11 (no per-message TTL), with JetStream on. */
    public static NatsServerProcess legacy() {
        return start(binary("nats.server.legacy.bin"), true);
    }

    /** A 2.11+ server without JetStream. */
    public static NatsServerProcess withoutJetStream() {
        return start(binary("nats.server.bin"), false);
    }

    public static String binary(String property) {
        String path = System.getProperty(property, "");
        if (path.isBlank() || path.startsWith("${") || !Files.isExecutable(Path.of(path))) {
            throw new IllegalStateException("system property " + property + " must name a nats-server binary; "
                    + "run the tests with scripts/test.sh, which fetches one");
        }
        return path;
    }

    public static NatsServerProcess start(String binary, boolean jetStream, String... extraArguments) {
        try {
            int port = freePort();
            Path store = Files.createTempDirectory("dagnats-nats-");
            List<String> arguments = new ArrayList<>();
            if (jetStream) {
                arguments.addAll(List.of("-js", "-sd", store.resolve("jetstream").toString()));
            }
            arguments.addAll(List.of(extraArguments));
            return start(binary, port, store, arguments);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    /**
     * A 2.11+ server run from the text of a configuration file (a shipped example), its
     * {@code {{PORT}}} and {@code {{STORE}}} placeholders filled in with this process's own port and
     * JetStream directory: so it can be stopped, its store copied and restored, and started again
     * like any other, and its store is removed on close.
     */
    static NatsServerProcess fromConfig(String config) {
        try {
            int port = freePort();
            Path store = Files.createTempDirectory("dagnats-nats-");
            Path file = store.resolve("nats-server.conf");
            Files.writeString(file, config.replace("{{PORT}}", Integer.toString(port))
                    .replace("{{STORE}}", store.resolve("jetstream").toString()));
            return start(binary("nats.server.bin"), port, store, List.of("-c", file.toString()));
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    private static NatsServerProcess start(String binary, int port, Path store, List<String> arguments)
            throws IOException {
        Path log = store.resolve("server.log");
        List<String> command = new ArrayList<>(List.of(binary, "-a", "127.0.0.1", "-p", Integer.toString(port)));
        command.addAll(arguments);
        NatsServerProcess server = new NatsServerProcess(launch(command, log), List.copyOf(command), port, store, log);
        server.awaitListening(Duration.ofSeconds(15));
        return server;
    }

    private static Process launch(List<String> command, Path log) throws IOException {
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }

    /** SIGTERM, and waits for the process to end: the server shuts down cleanly, flushing its store. */
    public void stop() {
        process.destroy();
        awaitExit(process);
    }

    /** kill -9, and waits for the process to end: nothing flushed, no goodbye. */
    public void kill() {
        process.destroyForcibly();
        awaitExit(process);
    }

    /** Starts the server again, stopped or killed before, on the same port and store directory. */
    public void startAgain() {
        if (process.isAlive()) {
            throw new IllegalStateException("nats-server on " + port + " is still running");
        }
        try {
            String before = Files.readString(log);
            process = launch(command, log);
            awaitListening(Duration.ofSeconds(30), before.length());
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    private static void awaitExit(Process process) {
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                throw new IllegalStateException("nats-server did not exit within 15 s");
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    /** The JetStream store directory (for tests that copy it away and put the copy back while stopped). */
    Path jetStreamDirectory() {
        return storeDirectory.resolve("jetstream");
    }

    public String url() {
        return "nats://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    private void awaitListening(Duration limit) throws IOException {
        awaitListening(limit, 0);
    }

    /** @param logFrom where this start's lines begin in the log (a restart appends to it) */
    private void awaitListening(Duration limit, int logFrom) throws IOException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("nats-server exited at start: " + Files.readString(log));
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 200);
                if (Files.readString(log).substring(logFrom).contains("Server is ready")) {
                    return;
                }
            } catch (IOException notYet) {
                // poll again until the deadline
            }
            Polling.pause();
        }
        close();
        throw new IllegalStateException("nats-server did not listen on " + port + " within " + limit);
    }

    public static int freePort() throws IOException {
        return distinctFreePorts(1)[0];
    }

    /** Ports held open together while chosen, so no two of them are the same. */
    public static int[] distinctFreePorts(int count) throws IOException {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try (Stream<Path> files = Files.walk(storeDirectory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp directory is harmless
        }
    }
}
