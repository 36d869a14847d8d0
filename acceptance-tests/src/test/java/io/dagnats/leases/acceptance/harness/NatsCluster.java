package io.dagnats.leases.acceptance.harness;

import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A 3-node nats-server cluster with JetStream on loopback: free client and
 * route ports, one store directory per node. Nodes can be killed (SIGKILL),
 * stopped and restarted on the same ports and stores.
 */
public final class NatsCluster implements AutoCloseable {

    public final class Node {
        public final String name;
        final int clientPort;
        final int routePort;
        final Path store;
        Process process;

        Node(String name, int clientPort, int routePort, Path store) {
            this.name = name;
            this.clientPort = clientPort;
            this.routePort = routePort;
            this.store = store;
        }

        String url() {
            return "nats://127.0.0.1:" + clientPort;
        }

        public void start() {
            try {
                List<String> command = new ArrayList<>(List.of(binary, "-n", name, "-a", "127.0.0.1",
                        "-p", Integer.toString(clientPort), "-js", "-sd", store.resolve("js").toString(),
                        "--cluster_name", "dagnats-test", "--cluster", "nats://127.0.0.1:" + routePort,
                        "--routes", routes()));
                command.addAll(extraArguments);
                process = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(store.resolve("server.log").toFile()))
                        .start();
            } catch (IOException failed) {
                throw new UncheckedIOException(failed);
            }
        }

        /** kill -9: no goodbye to the cluster, nothing flushed. */
        public void kill() {
            if (process != null) {
                process.destroyForcibly();
                waitFor();
            }
        }

        /** A clean stop (SIGTERM, lame duck skipped). */
        void stop() {
            if (process != null) {
                process.destroy();
                waitFor();
            }
        }

        boolean alive() {
            return process != null && process.isAlive();
        }

        boolean listening() {
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", clientPort), 200);
                return true;
            } catch (IOException notYet) {
                return false;
            }
        }

        private void waitFor() {
            try {
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(15, TimeUnit.SECONDS);
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private final String binary;
    private final List<String> extraArguments;
    private final Path root;
    public final List<Node> nodes = new ArrayList<>();

    private NatsCluster(String binary, List<String> extraArguments) throws IOException {
        this.binary = binary;
        this.extraArguments = extraArguments;
        this.root = Files.createTempDirectory("dagnats-cluster-");
        int[] ports = NatsServerProcess.distinctFreePorts(6);
        for (int i = 1; i <= 3; i++) {
            Path store = Files.createDirectories(root.resolve("n" + i));
            nodes.add(new Node("n" + i, ports[2 * i - 2], ports[2 * i - 1], store));
        }
    }

    public static NatsCluster start(String... extraArguments) {
        NatsCluster cluster;
        try {
            cluster = new NatsCluster(NatsServerProcess.binary("nats.server.bin"), List.of(extraArguments));
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
        try {
            cluster.nodes.forEach(Node::start);
            cluster.awaitJetStream(Duration.ofSeconds(60));
            return cluster;
        } catch (RuntimeException | AssertionError failed) {
            cluster.close();
            throw failed;
        }
    }

    private String routes() {
        return nodes.stream().map(node -> "nats://127.0.0.1:" + node.routePort).collect(Collectors.joining(","));
    }

    /** Every node's client URL, for clients that should fail over between them. */
    public String urls() {
        return nodes.stream().map(Node::url).collect(Collectors.joining(","));
    }

    public Node node(String name) {
        return nodes.stream().filter(node -> node.name.equals(name)).findFirst().orElseThrow();
    }

    /** Waits until the nodes listen and JetStream answers (a meta leader was elected). */
    public void awaitJetStream(Duration limit) {
        Polling.until(limit, "the cluster to listen", () -> nodes.stream().filter(Node::alive).allMatch(Node::listening),
                listening -> listening);
        try {
            Polling.until(limit, "JetStream in the cluster", this::jetStreamAnswers, answers -> answers);
        } catch (AssertionError notUp) {
            StringBuilder logs = new StringBuilder(notUp.getMessage());
            for (Node node : nodes) {
                try {
                    List<String> lines = Files.readAllLines(node.store.resolve("server.log"));
                    logs.append("\n--- ").append(node.name).append(" (alive ").append(node.alive()).append(")\n")
                            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())));
                } catch (IOException unreadable) {
                    logs.append("\n--- ").append(node.name).append(": no log");
                }
            }
            throw new AssertionError(logs.toString(), notUp);
        }
    }

    private boolean jetStreamAnswers() {
        try (Connection connection = Nats.connect(new Options.Builder().servers(urls().split(","))
                .connectionTimeout(Duration.ofSeconds(2)).maxReconnects(0).build())) {
            connection.jetStreamManagement().getAccountStatistics();
            return true;
        } catch (Exception notYet) {
            return false;
        }
    }

    /** The name of the node that leads the stream, as JetStream reports it now. */
    public String streamLeader(Connection connection, String stream) {
        try {
            JetStreamManagement management = connection.jetStreamManagement();
            return management.getStreamInfo(stream).getClusterInfo().getLeader();
        } catch (Exception unavailable) {
            return null;
        }
    }

    @Override
    public void close() {
        nodes.forEach(Node::kill);
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp directory is harmless
        }
    }
}
