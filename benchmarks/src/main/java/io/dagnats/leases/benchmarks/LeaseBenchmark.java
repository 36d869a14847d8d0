package io.dagnats.leases.benchmarks;

import static io.dagnats.leases.benchmarks.ComparedSteps.DIRECT;
import static io.dagnats.leases.benchmarks.ComparedSteps.OWNER;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dagnats.leases.benchmarks.ClosedLoop.Run;
import io.dagnats.leases.benchmarks.ComparedSteps.StepFactory;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The lease service side by side with the JetStream operations it is made of,
 * issued directly with jnats, in the same run: acquire (free key), renew, owner
 * and forward, at 1, 16 and 64 closed-loop clients, with 10, 10 000 and 100 000
 * live leases in the bucket.
 *
 * <p>Next to each row, in the same run: the <b>raw</b> JetStream operation alone
 * (acquire: the create; renew: the compare-and-set write alone; owner and
 * forward: the leader read) and the <b>hop</b>, one core NATS request/reply to an
 * echo responder at the same number of clients, so a row shows how far the
 * service is above "raw + one hop". And the <b>relay</b>: that raw operation (for
 * forward: the owner hop) sent through {@link JnatsRelay}, a jnats process that
 * passes each request on and its answer back with the service's messages and
 * threads but none of its work, so a row shows the service's CPU and latency
 * next to the floor jnats itself sets.
 *
 * <p>Starts nothing. NATS_URL names the nats-server; a dagnats must already
 * serve on it (scripts/bench.sh starts both). DAGNATS_PID and NATS_PID, when
 * given, let the report show each process's CPU time and thread context
 * switches per service request, over the measured window only; RELAY_PID names
 * the running relay (none: no relay rows), and its CPU per request. BENCH_OPS
 * narrows the operations; BENCH_PROFILE names a folder to record the service
 * with JFR during each service run (scripts/bench.sh profile). Writes a table
 * to stdout and JSON to the path in BENCH_JSON (default benchmarks/target/bench.json).
 *
 * <p>The steps a row compares sit side by side in {@link ComparedSteps}, so a reader
 * checks in one file that each pair does the same work; {@link ClosedLoop} runs and
 * measures them; this program orders the runs and reports them.
 */
public final class LeaseBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Duration runFor;
    private final int rounds;
    private final ProcessCost service;
    private final ProcessCost server;
    private final ProcessCost relay;
    private final ComparedSteps steps;
    private final ClosedLoop loop;
    private final ArrayNode results = JSON.createArrayNode();

    private LeaseBenchmark(Connection[] connections, Duration runFor, int rounds, long dagnatsPid, long natsPid,
            long relayPid, Path profile) {
        this.runFor = runFor;
        this.rounds = rounds;
        this.service = new ProcessCost(dagnatsPid);
        this.server = new ProcessCost(natsPid);
        this.relay = new ProcessCost(relayPid);
        this.steps = new ComparedSteps(connections);
        this.loop = new ClosedLoop(connections, service, server, relay, new Recording(dagnatsPid, profile));
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv().getOrDefault("NATS_URL", "nats://127.0.0.1:4222");
        Duration runFor = Duration.ofMillis(Long.parseLong(System.getenv().getOrDefault("BENCH_RUN_MS", "3000")));
        int rounds = Integer.parseInt(System.getenv().getOrDefault("BENCH_ROUNDS", "3"));
        long pid = Long.parseLong(System.getenv().getOrDefault("DAGNATS_PID", "0"));
        long natsPid = Long.parseLong(System.getenv().getOrDefault("NATS_PID", "0"));
        long relayPid = Long.parseLong(System.getenv().getOrDefault("RELAY_PID", "0"));
        List<String> ops = List.of(System.getenv().getOrDefault("BENCH_OPS", "acquire,renew,owner,forward").split(","));
        Path profile = Optional.ofNullable(System.getenv("BENCH_PROFILE")).map(Path::of).orElse(null);
        int[] clientCounts = ints(System.getenv().getOrDefault("BENCH_CLIENTS", "1,16,64"));
        int[] leaseCounts = ints(System.getenv().getOrDefault("BENCH_LEASES", "10,10000,100000"));
        Path jsonOut = Path.of(System.getenv().getOrDefault("BENCH_JSON", "benchmarks/target/bench.json"));

        Connection[] connections = new Connection[8];
        for (int i = 0; i < connections.length; i++) {
            connections[i] = Nats.connect(new Options.Builder().server(url).reportNoResponders().build());
        }
        LeaseBenchmark benchmark = new LeaseBenchmark(connections, runFor, rounds, pid, natsPid, relayPid,
                profile);
        Dispatcher echo = connections[0].createDispatcher(message -> connections[0].publish(message.getReplyTo(), message.getData()));
        echo.subscribe(LeaseSubjects.inboxes(OWNER));
        echo.subscribe("bench.echo");
        connections[0].flush(Duration.ofSeconds(5));

        // JIT-compile both paths before anything is measured: the first rows would otherwise pay for it.
        // One client is warmed up on its own when measured: its shapes (every thread parks between
        // requests) are compiled apart from the loaded ones, and the first one-client row used to carry
        // a few hundred us of C2 compiler CPU per request.
        int[] warmUps = Arrays.stream(clientCounts).anyMatch(clients -> clients == 1) ? new int[] {16, 1} : new int[] {16};
        System.out.println("warming up (unmeasured): every operation, both paths, at " + Arrays.toString(warmUps)
                + " clients");
        for (int clients : warmUps) {
            for (String op : ops) {
                benchmark.loop.run(new Run(), runFor, clients, benchmark.steps.serviceStep(op), null);
                benchmark.loop.run(new Run(), runFor, clients, benchmark.steps.baselineStep(op, DIRECT), null);
                if (benchmark.relay.known()) {
                    benchmark.loop.run(new Run(), runFor, clients, benchmark.steps.relayStep(op), null);
                }
            }
        }
        System.out.printf(Locale.ROOT, "%-8s %6s %7s | %28s | %28s | %6s | %13s | %5s | %11s | %6s | %s%n", "op", "leases",
                "clients", "dagnats  ops/s   p50   p99  p99.9", "baseline ops/s   p50   p99  p99.9", "ratio",
                "raw ops/s p50", "hop", "p50/raw+hop", "/raw", "per request: dagnats cpu, switches | nats-server cpu | "
                        + "relay ops/s p50 cpu | dagnats over relay: ops/s p50 cpu");
        int live = 0;
        for (int leases : leaseCounts) {
            live = Filler.fill(connections[0], live, leases);
            for (int clients : clientCounts) {
                for (String op : ops) {
                    benchmark.compare(op, leases, clients);
                }
            }
        }
        Files.createDirectories(jsonOut.toAbsolutePath().getParent());
        ObjectNode document = JSON.createObjectNode();
        document.put("when", Instant.now().toString());
        document.put("cores", Runtime.getRuntime().availableProcessors());
        document.put("run_ms", runFor.toMillis());
        document.put("rounds", rounds);
        document.set("results", benchmark.results);
        Files.writeString(jsonOut, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(document));
        System.out.println("JSON: " + jsonOut);
        for (Connection connection : connections) {
            connection.close();
        }
    }

    private static int[] ints(String list) {
        return Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    /**
     * One row: the service and everything it is set beside, each measured in {@link #rounds}
     * windows taken in turn (service, baseline, raw, relay, hop, then again), so a slow
     * spell of the shared machine falls on all of them alike rather than on one.
     */
    private void compare(String op, int leases, int clients) throws Exception {
        String name = op + "-" + leases + "-" + clients;
        StepFactory rawStep = steps.rawStep(op, DIRECT);
        Run dagnats = new Run();
        Run baseline = new Run();
        Run raw = rawStep == null ? baseline : new Run();
        Run relayed = relay.known() ? new Run() : null;
        Run hop = new Run();
        Duration window = Duration.ofMillis(Math.max(1, runFor.toMillis() / rounds));
        for (int round = 0; round < rounds; round++) {
            loop.run(dagnats, window, clients, steps.serviceStep(op), round == 0 ? name : null);
            loop.run(baseline, window, clients, steps.baselineStep(op, DIRECT), null);
            if (raw != baseline) {
                loop.run(raw, window, clients, rawStep, null);
            }
            if (relayed != null) {
                loop.run(relayed, window, clients, steps.relayStep(op), null);
            }
            loop.run(hop, window, clients, steps.echoStep(DIRECT), null);
        }
        double rawPlusHop = raw.latencies.micros(0.5) + hop.latencies.micros(0.5);
        System.out.printf(Locale.ROOT,
                "%-8s %6d %7d | %7.0f %6.0f %5.0f %6.0f | %7.0f %6.0f %5.0f %6.0f | %5.2fx | %7.0f %5.0f | %5.0f | %5.0f %4.2fx | %5.2fx | %s | %s%n",
                op, leases, clients, dagnats.throughput(), dagnats.latencies.micros(0.5), dagnats.latencies.micros(0.99),
                dagnats.latencies.micros(0.999), baseline.throughput(), baseline.latencies.micros(0.5),
                baseline.latencies.micros(0.99), baseline.latencies.micros(0.999),
                dagnats.throughput() / baseline.throughput(), raw.throughput(), raw.latencies.micros(0.5),
                hop.latencies.micros(0.5), rawPlusHop, dagnats.latencies.micros(0.5) / rawPlusHop,
                dagnats.throughput() / raw.throughput(), costs(dagnats), relayed == null ? "-" : overRelay(dagnats, relayed));
        ObjectNode result = results.addObject();
        result.put("op", op).put("leases", leases).put("clients", clients);
        result.set("dagnats", dagnats.json());
        result.set("baseline", baseline.json());
        result.set("raw", raw.json());
        result.set("hop", hop.json());
        result.put("throughput_ratio", dagnats.throughput() / baseline.throughput());
        result.put("throughput_ratio_to_raw", dagnats.throughput() / raw.throughput());
        result.put("p50_ratio", dagnats.latencies.micros(0.5) / baseline.latencies.micros(0.5));
        result.put("p50_ratio_to_raw_plus_hop", dagnats.latencies.micros(0.5) / rawPlusHop);
        if (relayed != null) {
            result.set("relay", relayed.json());
            result.put("p50_ratio_to_relay", dagnats.latencies.micros(0.5) / relayed.latencies.micros(0.5));
            if (relayed.ops > 0) {
                result.put("relay_cpu_us_per_request", relayed.relayCost.cpuNanos() / 1_000.0 / relayed.ops);
            }
        }
        if (service.known() && dagnats.ops > 0) {
            result.put("dagnats_cpu_us_per_request", dagnats.serviceCost.cpuNanos() / 1_000.0 / dagnats.ops);
            result.put("dagnats_context_switches_per_request", (double) dagnats.serviceCost.switches() / dagnats.ops);
        }
        if (server.known() && dagnats.ops > 0) {
            result.put("nats_server_cpu_us_per_request", dagnats.serverCost.cpuNanos() / 1_000.0 / dagnats.ops);
        }
    }

    /** Per request of the measured window: the service's CPU and context switches, nats-server's CPU. */
    private String costs(Run run) {
        if (run.ops == 0) {
            return "-";
        }
        String dagnats = service.known() ? String.format(Locale.ROOT, "%4.0f us %4.1f",
                run.serviceCost.cpuNanos() / 1_000.0 / run.ops, (double) run.serviceCost.switches() / run.ops) : "-";
        String nats = server.known()
                ? String.format(Locale.ROOT, "%4.0f us", run.serverCost.cpuNanos() / 1_000.0 / run.ops) : "-";
        return dagnats + " | " + nats;
    }

    /** The relay's p50 and CPU per request, and the service's over them. */
    private String overRelay(Run dagnats, Run relayed) {
        if (relayed.ops == 0 || dagnats.ops == 0) {
            return "-";
        }
        double relayCpu = relayed.relayCost.cpuNanos() / 1_000.0 / relayed.ops;
        double dagnatsCpu = dagnats.serviceCost.cpuNanos() / 1_000.0 / dagnats.ops;
        return String.format(Locale.ROOT, "%7.0f %5.0f %4.0f us | %4.2fx %4.2fx %4.2fx", relayed.throughput(),
                relayed.latencies.micros(0.5), relayCpu, dagnats.throughput() / relayed.throughput(),
                dagnats.latencies.micros(0.5) / relayed.latencies.micros(0.5),
                service.known() ? dagnatsCpu / relayCpu : Double.NaN);
    }
}
