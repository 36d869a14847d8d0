package io.dagnats.leases.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Request;
import io.dagnats.leases.protocol.Requests;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.JetStream;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.PublishOptions;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

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
 * <p>Over 200 lines on purpose: it is a program read top to bottom, and each
 * service step sits next to the direct JetStream step it is compared with, so a
 * reader checks in one file that the two do the same work.
 */
public final class LeaseBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] PAYLOAD = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final HolderId OWNER = new HolderId("bench-owner");
    private static final HolderId HOLDER = new HolderId("h");

    private final Connection[] connections;
    private final Duration runFor;
    private final int rounds;
    private final ProcessCost service;
    private final ProcessCost server;
    private final ProcessCost relay;
    private final Recording recording;
    private final AtomicLong unique = new AtomicLong();
    private final ArrayNode results = JSON.createArrayNode();

    private LeaseBenchmark(Connection[] connections, Duration runFor, int rounds, long dagnatsPid, long natsPid,
            long relayPid, Path profile) {
        this.connections = connections;
        this.runFor = runFor;
        this.rounds = rounds;
        this.service = new ProcessCost(dagnatsPid);
        this.server = new ProcessCost(natsPid);
        this.relay = new ProcessCost(relayPid);
        this.recording = new Recording(dagnatsPid, profile);
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
                benchmark.run(new Run(), runFor, clients, benchmark.serviceStep(op), null);
                benchmark.run(new Run(), runFor, clients, benchmark.baselineStep(op, DIRECT), null);
                if (benchmark.relay.known()) {
                    benchmark.run(new Run(), runFor, clients, benchmark.relayStep(op), null);
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

    /** One closed-loop client: issues its next request when the last one is answered. */
    @FunctionalInterface
    private interface Step {
        /** Runs one request; returns false if the answer was wrong. */
        boolean run(Connection connection) throws Exception;
    }

    @FunctionalInterface
    private interface StepFactory {
        Step create(int client) throws Exception;
    }

    /**
     * One row: the service and everything it is set beside, each measured in {@link #rounds}
     * windows taken in turn (service, baseline, raw, relay, hop, then again), so a slow
     * spell of the shared machine falls on all of them alike rather than on one.
     */
    private void compare(String op, int leases, int clients) throws Exception {
        String name = op + "-" + leases + "-" + clients;
        StepFactory rawStep = rawStep(op, DIRECT);
        Run dagnats = new Run();
        Run baseline = new Run();
        Run raw = rawStep == null ? baseline : new Run();
        Run relayed = relay.known() ? new Run() : null;
        Run hop = new Run();
        Duration window = Duration.ofMillis(Math.max(1, runFor.toMillis() / rounds));
        for (int round = 0; round < rounds; round++) {
            run(dagnats, window, clients, serviceStep(op), round == 0 ? name : null);
            run(baseline, window, clients, baselineStep(op, DIRECT), null);
            if (raw != baseline) {
                run(raw, window, clients, rawStep, null);
            }
            if (relayed != null) {
                run(relayed, window, clients, relayStep(op), null);
            }
            run(hop, window, clients, echoStep(DIRECT), null);
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

    /** The threads that spent at least 1 us per request, most first, each with its time in the kernel. */
    private static String byThread(ProcessCost.Reading cost, long requests) {
        return cost.byThread().entrySet().stream()
                .filter(spent -> requests > 0 && spent.getValue() / 1_000.0 / requests >= 1)
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .map(spent -> String.format(Locale.ROOT, "%s %.0f us (kernel %.0f)", spent.getKey(),
                        spent.getValue() / 1_000.0 / requests,
                        cost.kernelByThread().getOrDefault(spent.getKey(), 0L) / 1_000.0 / requests))
                .collect(java.util.stream.Collectors.joining(", "));
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

    /** What one kind of step did over all its windows in a row. */
    private static final class Run {
        final Latencies latencies = new Latencies();
        long ops;
        long errors;
        long nanos;
        ProcessCost.Reading serviceCost = ProcessCost.Reading.NONE;
        ProcessCost.Reading serverCost = ProcessCost.Reading.NONE;
        ProcessCost.Reading relayCost = ProcessCost.Reading.NONE;

        double throughput() {
            return ops * 1e9 / nanos;
        }

        ObjectNode json() {
            ObjectNode node = JSON.createObjectNode();
            node.put("ops_per_s", throughput());
            node.put("p50_us", latencies.micros(0.5));
            node.put("p99_us", latencies.micros(0.99));
            node.put("p999_us", latencies.micros(0.999));
            node.put("errors", errors);
            return node;
        }
    }

    /**
     * One measured window, after a warm-up of a third of it (at most 1 s), added to {@code run}.
     *
     * @param recorded the recording's name when the service is to be recorded meanwhile (profile), or null
     */
    private void run(Run run, Duration window, int clients, StepFactory factory, String recorded) throws Exception {
        if (recorded != null) {
            recording.start(recorded);
        }
        AtomicBoolean measuring = new AtomicBoolean(false);
        AtomicBoolean going = new AtomicBoolean(true);
        AtomicLong ops = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicLong answered = new AtomicLong();
        CountDownLatch ready = new CountDownLatch(clients);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            Step step = factory.create(c);
            Connection connection = connections[c % connections.length];
            Thread thread = new Thread(() -> {
                ready.countDown();
                while (going.get()) {
                    long started = System.nanoTime();
                    boolean ok;
                    try {
                        ok = step.run(connection);
                    } catch (Exception failed) {
                        ok = false;
                    }
                    if (ok) {
                        answered.incrementAndGet();
                    }
                    if (measuring.get()) {
                        if (ok) {
                            run.latencies.add(System.nanoTime() - started);
                            ops.incrementAndGet();
                        } else {
                            errors.incrementAndGet();
                        }
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        ready.await();
        Thread.sleep(Math.min(1_000, window.toMillis() / 3)); // warm-up, not measured
        Map<Long, String> jnatsThreads = recorded != null ? recording.jnatsThreads() : Map.of();
        ProcessCost.Reading serviceBefore = service.read(jnatsThreads);
        ProcessCost.Reading serverBefore = server.read();
        ProcessCost.Reading relayBefore = relay.read();
        long started = System.nanoTime();
        measuring.set(true);
        Thread.sleep(window.toMillis());
        measuring.set(false);
        long nanos = System.nanoTime() - started;
        ProcessCost.Reading serviceCost = service.read(jnatsThreads).minus(serviceBefore);
        ProcessCost.Reading serverCost = server.read().minus(serverBefore);
        ProcessCost.Reading relayCost = relay.read().minus(relayBefore);
        going.set(false);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        if (recorded != null && recording.on()) {
            recording.stop(recorded);
            System.out.println("recorded " + recorded + ": " + answered.get() + " requests answered while recording");
            System.out.println("  dagnats CPU per request by thread: " + byThread(serviceCost, ops.get()));
        }
        synchronized (run) {
            run.nanos += nanos;
            run.serviceCost = run.serviceCost.plus(serviceCost);
            run.serverCost = run.serverCost.plus(serverCost);
            run.relayCost = run.relayCost.plus(relayCost);
            run.ops += ops.get();
            run.errors += errors.get();
        }
    }

    // ---- the service ----

    private StepFactory serviceStep(String op) {
        return switch (op) {
            case "acquire" -> client -> connection -> {
                LeaseKey key = new LeaseKey("fresh-" + unique.incrementAndGet());
                return call(connection, new Request.Acquire(key, HOLDER, LeaseTtl.ofSeconds(1)), Replies::decodeAcquire)
                        instanceof Answers.Acquire.Granted;
            };
            case "renew" -> client -> {
                LeaseKey key = new LeaseKey("renew-" + unique.incrementAndGet());
                Fence[] fence = {call(connections[0], new Request.Acquire(key, HOLDER, LeaseTtl.ofSeconds(60)),
                        Replies::decodeAcquire).lease().revision()};
                return connection -> {
                    Answers.Renew renew = call(connection, new Request.Renew(key, HOLDER, fence[0], Optional.empty()),
                            Replies::decodeRenew);
                    if (renew instanceof Answers.Renew.Renewed renewed) {
                        fence[0] = renewed.lease().revision();
                        return true;
                    }
                    return false;
                };
            };
            case "owner" -> client -> {
                LeaseKey key = new LeaseKey("owned-" + unique.incrementAndGet());
                call(connections[0], new Request.Acquire(key, HOLDER, LeaseTtl.ofSeconds(600)), Replies::decodeAcquire);
                Request owner = new Request.Owner(key);
                return connection -> call(connection, owner, Replies::decodeOwner) instanceof Answers.Owner.Held;
            };
            case "forward" -> client -> {
                LeaseKey key = new LeaseKey("fwd-" + unique.incrementAndGet());
                call(connections[0], new Request.Acquire(key, OWNER, LeaseTtl.ofSeconds(600)), Replies::decodeAcquire);
                Request forward = new Request.Forward(key, PAYLOAD, Request.Forward.DEFAULT_TIMEOUT);
                return connection -> call(connection, forward, Replies::decodeForward) instanceof Answers.Forward.Answered;
            };
            default -> throw new IllegalArgumentException(op);
        };
    }

    /** One request through the protocol's codecs; an error reply throws, which the run counts as an error. */
    private static <T> T call(Connection connection, Request request, Function<byte[], T> decode) throws Exception {
        Message reply = connection.request(request.operation().subject(), Requests.encode(request), Duration.ofSeconds(5));
        return decode.apply(reply == null ? null : reply.getData());
    }

    // ---- the same JetStream operations, directly ----

    private StepFactory baselineStep(String op, Route route) {
        return switch (op) {
            case "acquire" -> client -> connection -> {
                String key = "raw-fresh-" + unique.incrementAndGet();
                Headers headers = new Headers();
                headers.put("Nats-Expected-Last-Subject-Sequence", "0");
                headers.put("Nats-TTL", "1s");
                return ok(publish(route, connection, key, headers), "\"seq\"");
            };
            case "renew" -> client -> {
                String key = "raw-renew-" + unique.incrementAndGet();
                Headers create = new Headers();
                create.put("Nats-TTL", "60s");
                publish(DIRECT, connections[0], key, create);
                return connection -> {
                    String get = request(route, connection, "$JS.API.STREAM.MSG.GET.KV_leases",
                            "{\"last_by_subj\":\"$KV.leases." + key + "\"}");
                    long seq = JSON.readTree(get).path("message").path("seq").asLong();
                    Headers headers = new Headers();
                    headers.put("Nats-Expected-Last-Subject-Sequence", Long.toString(seq));
                    headers.put("Nats-TTL", "60s");
                    return ok(publish(route, connection, key, headers), "\"seq\"");
                };
            };
            case "owner" -> client -> {
                String key = "raw-owned-" + unique.incrementAndGet();
                Headers create = new Headers();
                create.put("Nats-TTL", "600s");
                publish(DIRECT, connections[0], key, create);
                return connection -> ok(request(route, connection, "$JS.API.STREAM.MSG.GET.KV_leases",
                        "{\"last_by_subj\":\"$KV.leases." + key + "\"}"), "\"message\"");
            };
            case "forward" -> echoStep(route);
            default -> throw new IllegalArgumentException(op);
        };
    }

    /**
     * The one JetStream operation a service request is made of, where the baseline does more
     * (renew: the compare-and-set alone, under the sequence its last write was acknowledged
     * with; forward: the leader read); null where the baseline is that operation already.
     */
    private StepFactory rawStep(String op, Route route) {
        return switch (op) {
            case "renew" -> client -> {
                String key = "raw-cas-" + unique.incrementAndGet();
                Headers create = new Headers();
                create.put("Nats-TTL", "60s");
                long[] seq = {JSON.readTree(publish(DIRECT, connections[0], key, create)).path("seq").asLong()};
                return connection -> {
                    Headers headers = new Headers();
                    headers.put("Nats-Expected-Last-Subject-Sequence", Long.toString(seq[0]));
                    headers.put("Nats-TTL", "60s");
                    String ack = publish(route, connection, key, headers);
                    seq[0] = JSON.readTree(ack).path("seq").asLong();
                    return ok(ack, "\"seq\"");
                };
            };
            case "forward" -> baselineStep("owner", route);
            default -> null;
        };
    }

    /**
     * What the service's request is made of, through the jnats relay: the raw operation,
     * and for forward the owner hop (a forward to the owner the service remembers).
     */
    private StepFactory relayStep(String op) {
        return switch (op) {
            case "renew" -> rawStep(op, RELAYED);
            case "forward" -> echoStep(RELAYED);
            default -> baselineStep(op, RELAYED);
        };
    }

    /** One core NATS request/reply to an echo responder: the hop a service request adds. */
    private StepFactory echoStep(Route route) {
        return client -> connection -> {
            Message reply = route.request(connection, NatsMessage.builder().subject("bench.echo").data(PAYLOAD).build());
            return reply != null && reply.getData().length == PAYLOAD.length;
        };
    }

    private static final byte[] RECORD = "{\"holder\":\"h\",\"acquired_at\":\"2026-11-30T00:00:00Z\",\"ttl_ms\":60000}"
            .getBytes(StandardCharsets.UTF_8);

    /** How a raw request travels: straight to its subject, or through the jnats relay. */
    @FunctionalInterface
    private interface Route {
        Message request(Connection connection, Message message) throws Exception;
    }

    private static final Route DIRECT = (connection, message) -> connection.request(message, Duration.ofSeconds(5));

    private static final Route RELAYED = (connection, message) -> {
        Headers headers = message.hasHeaders() ? new Headers(message.getHeaders()) : new Headers();
        headers.put(JnatsRelay.TO, message.getSubject());
        return connection.request(NatsMessage.builder().subject(JnatsRelay.SUBJECT).headers(headers)
                .data(message.getData()).build(), Duration.ofSeconds(5));
    };

    private static String publish(Route route, Connection connection, String key, Headers headers) throws Exception {
        Message reply = route.request(connection, NatsMessage.builder().subject("$KV.leases." + key).headers(headers)
                .data(RECORD).build());
        return reply == null ? "" : new String(reply.getData(), StandardCharsets.UTF_8);
    }

    private static String request(Route route, Connection connection, String subject, String body) throws Exception {
        Message reply = route.request(connection, NatsMessage.builder().subject(subject)
                .data(body.getBytes(StandardCharsets.UTF_8)).build());
        return reply == null ? "" : new String(reply.getData(), StandardCharsets.UTF_8);
    }

    private static boolean ok(String reply, String mustContain) {
        return reply.contains(mustContain) && !reply.contains("\"error\"");
    }
}
