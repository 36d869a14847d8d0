package io.dagnats.leases.acceptance.durability;

import io.dagnats.leases.acceptance.durability.RecoveredBucket.StoreSnapshot;
import io.dagnats.leases.acceptance.harness.FatJar;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One or three nats-servers, each with its store on a {@link LazyFilesystem},
 * and one dagnats instance (the fat JAR, its own process) serving on them; the
 * power of all of them can be cut at once and brought back on the same stores
 * and ports.
 */
final class PowerLossRig implements AutoCloseable {

    /** What is under test: how many nodes, the servers' {@code sync_interval}, the lazy filesystem's writeback. */
    record Configuration(int nodes, boolean syncAlways, double writebackSeconds) {

        String name() {
            return (nodes == 1 ? "one node" : nodes + "-node R" + nodes) + ", sync_interval "
                    + (syncAlways ? "always" : "default (2m)") + ", unsynced data "
                    + (writebackSeconds > 0 ? "written back after " + writebackSeconds + " s" : "never written back");
        }
    }

    private final class Node {
        final String name;
        final int clientPort;
        final int routePort;
        final LazyFilesystem store;
        final Path log;
        Process process;

        Node(String name, int clientPort, int routePort, LazyFilesystem store, Path log) {
            this.name = name;
            this.clientPort = clientPort;
            this.routePort = routePort;
            this.store = store;
            this.log = log;
        }

        void start() {
            List<String> command = new ArrayList<>(List.of(binary, "-n", name, "-a", "127.0.0.1",
                    "-p", Integer.toString(clientPort), "-js", "-sd", store.mountpoint().toString()));
            if (configuration.syncAlways()) {
                command.addAll(List.of("-c", syncAlwaysConfig.toString()));
            }
            if (nodes.size() > 1) {
                command.addAll(List.of("--cluster_name", "dagnats-power", "--cluster", "nats://127.0.0.1:" + routePort,
                        "--routes", nodes.stream().map(node -> "nats://127.0.0.1:" + node.routePort)
                                .collect(Collectors.joining(","))));
            }
            try {
                process = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            } catch (IOException failed) {
                throw new UncheckedIOException(failed);
            }
        }
    }

    final Configuration configuration;
    private final String binary;
    private final Path root;
    private final Path syncAlwaysConfig;
    private final List<Node> nodes = new ArrayList<>();
    private final Path dagnatsLog;
    private Process dagnats;

    private PowerLossRig(Configuration configuration) throws IOException {
        this.configuration = configuration;
        this.binary = NatsServerProcess.binary("nats.server.bin");
        this.root = Files.createTempDirectory("dagnats-power-");
        this.syncAlwaysConfig = Files.writeString(root.resolve("sync-always.conf"), "jetstream { sync_interval: always }\n");
        this.dagnatsLog = root.resolve("dagnats.log");
        int[] ports = NatsServerProcess.distinctFreePorts(2 * configuration.nodes());
        for (int i = 1; i <= configuration.nodes(); i++) {
            Path backing = Files.createDirectories(root.resolve("n" + i + "-disk"));
            Path mount = Files.createDirectories(root.resolve("n" + i + "-store"));
            nodes.add(new Node("n" + i, ports[2 * i - 2], ports[2 * i - 1],
                    LazyFilesystem.at(backing, mount, configuration.writebackSeconds()), root.resolve("n" + i + ".log")));
        }
    }

    /** Mounts the stores, starts the servers and dagnats, and waits until dagnats serves. */
    static PowerLossRig start(Configuration configuration) {
        PowerLossRig rig;
        try {
            rig = new PowerLossRig(configuration);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
        try {
            rig.startServers();
            rig.startDagnats();
            return rig;
        } catch (RuntimeException | AssertionError failed) {
            rig.close();
            throw failed;
        }
    }

    String urls() {
        return nodes.stream().map(node -> "nats://127.0.0.1:" + node.clientPort).collect(Collectors.joining(","));
    }

    /** kill -9 every server and dagnats together, then drop what the stores had not synced. */
    void cutPower() {
        List<Process> all = new ArrayList<>();
        nodes.forEach(node -> all.add(node.process));
        all.add(dagnats);
        all.forEach(Process::destroyForcibly);
        all.forEach(PowerLossRig::awaitExit);
        nodes.forEach(node -> node.store.cutPower());
    }

    /** Boots the servers on the same stores and ports and waits until JetStream answers. */
    void startServers() {
        nodes.forEach(node -> node.store.mount());
        nodes.forEach(Node::start);
        Polling.until(Duration.ofSeconds(90), "JetStream on the restarted servers", this::jetStreamAnswers,
                answers -> answers);
    }

    void startDagnats() {
        try {
            Files.writeString(dagnatsLog, "--- start\n", java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            long before = Files.readAllLines(dagnatsLog).stream().filter(line -> line.contains("serving")).count();
            dagnats = FatJar.command(Map.of("NATS_URL", urls(), "DAGNATS_LEASE_REPLICAS",
                            Integer.toString(configuration.nodes())))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dagnatsLog.toFile()))
                    .start();
            Polling.until(Duration.ofSeconds(60), "dagnats to serve", () -> servingLines(), lines -> lines > before);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    private long servingLines() {
        try {
            return Files.readAllLines(dagnatsLog).stream().filter(line -> line.contains("serving")).count();
        } catch (IOException unreadable) {
            return 0;
        }
    }

    /**
     * What the recovered servers hold for {@code keys}, read through the stream
     * leader before dagnats serves (so no holder's write can have landed yet).
     */
    StoreSnapshot snapshot(Collection<String> keys) {
        return RecoveredBucket.read(this::connect, keys, root);
    }

    private Connection connect() throws IOException, InterruptedException {
        return Nats.connect(new Options.Builder().servers(urls().split(",")).connectionTimeout(Duration.ofSeconds(2))
                .maxReconnects(0).build());
    }

    private boolean jetStreamAnswers() {
        try (Connection connection = connect()) {
            connection.jetStreamManagement().getAccountStatistics();
            return true;
        } catch (Exception notYet) {
            return false;
        }
    }

    /** The last lines of dagnats' log, for a failure message. */
    String dagnatsLogTail() {
        try {
            List<String> lines = Files.readAllLines(dagnatsLog);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException unreadable) {
            return "(no dagnats log)";
        }
    }

    private static void awaitExit(Process process) {
        if (process == null) {
            return;
        }
        try {
            process.waitFor(15, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    static void removeTree(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp directory is harmless
        }
    }

    @Override
    public void close() {
        cutPower();
        if (Boolean.getBoolean("power.loss.keep")) {
            System.out.println("power-loss rig kept in " + root);
            return;
        }
        removeTree(root);
    }

}
