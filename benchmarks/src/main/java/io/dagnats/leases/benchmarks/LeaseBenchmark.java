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
 * <p>Starts nothing. NATS_URL names the nats-server; a dagnats must already
 * serve on it (scripts/bench.sh starts both). DAGNATS_PID, when given, lets the
 * report show the service's CPU time per request. Writes a table to stdout and
 * JSON to the path in BENCH_JSON (default benchmarks/target/bench.json).
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
    private final long dagnatsPid;
    private final AtomicLong unique = new AtomicLong();
    private final ArrayNode results = JSON.createArrayNode();

    private LeaseBenchmark(Connection[] connections, Duration runFor, long dagnatsPid) {
        this.connections = connections;
        this.runFor = runFor;
        this.dagnatsPid = dagnatsPid;
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv().getOrDefault("NATS_URL", "nats://127.0.0.1:4222");
        Duration runFor = Duration.ofMillis(Long.parseLong(System.getenv().getOrDefault("BENCH_RUN_MS", "3000")));
        long pid = Long.parseLong(System.getenv().getOrDefault("DAGNATS_PID", "0"));
        int[] clientCounts = ints(System.getenv().getOrDefault("BENCH_CLIENTS", "1,16,64"));
        int[] leaseCounts = ints(System.getenv().getOrDefault("BENCH_LEASES", "10,10000,100000"));
        Path jsonOut = Path.of(System.getenv().getOrDefault("BENCH_JSON", "benchmarks/target/bench.json"));

        Connection[] connections = new Connection[8];
        for (int i = 0; i < connections.length; i++) {
            connections[i] = Nats.connect(new Options.Builder().server(url).reportNoResponders().build());
        }
        LeaseBenchmark benchmark = new LeaseBenchmark(connections, runFor, pid);
        Dispatcher echo = connections[0].createDispatcher(message -> connections[0].publish(message.getReplyTo(), message.getData()));
        echo.subscribe(LeaseSubjects.inboxes(OWNER));
        echo.subscribe("bench.echo");
        connections[0].flush(Duration.ofSeconds(5));

        // JIT-compile both paths before anything is measured: the first rows would otherwise pay for it.
        System.out.println("warming up (unmeasured): every operation, both paths, 16 clients");
        for (String op : List.of("acquire", "renew", "owner", "forward")) {
            benchmark.run(16, benchmark.serviceStep(op));
            benchmark.run(16, benchmark.baselineStep(op));
        }
        System.out.printf(Locale.ROOT, "%-8s %7s %7s | %28s | %28s | %11s | %s%n", "op", "leases", "clients",
                "dagnats  ops/s   p50   p99  p99.9", "baseline ops/s   p50   p99  p99.9", "ratio tput", "cpu/req");
        int live = 0;
        for (int leases : leaseCounts) {
            live = Filler.fill(connections[0], live, leases);
            for (int clients : clientCounts) {
                for (String op : List.of("acquire", "renew", "owner", "forward")) {
                    benchmark.compare(op, leases, clients);
                }
            }
        }
        Files.createDirectories(jsonOut.toAbsolutePath().getParent());
        ObjectNode document = JSON.createObjectNode();
        document.put("when", Instant.now().toString());
        document.put("cores", Runtime.getRuntime().availableProcessors());
        document.put("run_ms", runFor.toMillis());
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

    private void compare(String op, int leases, int clients) throws Exception {
        long cpuBefore = cpuNanos();
        Run service = run(clients, serviceStep(op));
        long cpu = cpuNanos() - cpuBefore;
        Run baseline = run(clients, baselineStep(op));
        double cpuPerRequest = dagnatsPid > 0 && service.ops > 0 ? cpu / 1_000.0 / service.ops : Double.NaN;
        System.out.printf(Locale.ROOT, "%-8s %7d %7d | %7.0f %6.0f %5.0f %6.0f | %7.0f %6.0f %5.0f %6.0f | %9.2fx | %s%n",
                op, leases, clients, service.throughput(), service.latencies.micros(0.5), service.latencies.micros(0.99),
                service.latencies.micros(0.999), baseline.throughput(), baseline.latencies.micros(0.5),
                baseline.latencies.micros(0.99), baseline.latencies.micros(0.999),
                service.throughput() / baseline.throughput(),
                Double.isNaN(cpuPerRequest) ? "-" : String.format(Locale.ROOT, "%.0f us", cpuPerRequest));
        ObjectNode result = results.addObject();
        result.put("op", op).put("leases", leases).put("clients", clients);
        result.set("dagnats", service.json());
        result.set("baseline", baseline.json());
        result.put("throughput_ratio", service.throughput() / baseline.throughput());
        result.put("p50_ratio", service.latencies.micros(0.5) / baseline.latencies.micros(0.5));
        if (!Double.isNaN(cpuPerRequest)) {
            result.put("dagnats_cpu_us_per_request", cpuPerRequest);
        }
    }

    private static final class Run {
        final Latencies latencies = new Latencies();
        long ops;
        long errors;
        long nanos;

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

    private Run run(int clients, StepFactory factory) throws Exception {
        Run run = new Run();
        AtomicBoolean measuring = new AtomicBoolean(false);
        AtomicBoolean going = new AtomicBoolean(true);
        AtomicLong ops = new AtomicLong();
        AtomicLong errors = new AtomicLong();
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
        Thread.sleep(Math.min(1_000, runFor.toMillis() / 3)); // warm-up, not measured
        long started = System.nanoTime();
        measuring.set(true);
        Thread.sleep(runFor.toMillis());
        measuring.set(false);
        run.nanos = System.nanoTime() - started;
        going.set(false);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        run.ops = ops.get();
        run.errors = errors.get();
        return run;
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

    private StepFactory baselineStep(String op) {
        return switch (op) {
            case "acquire" -> client -> connection -> {
                String key = "raw-fresh-" + unique.incrementAndGet();
                Headers headers = new Headers();
                headers.put("Nats-Expected-Last-Subject-Sequence", "0");
                headers.put("Nats-TTL", "1s");
                return ok(publish(connection, key, headers), "\"seq\"");
            };
            case "renew" -> client -> {
                String key = "raw-renew-" + unique.incrementAndGet();
                Headers create = new Headers();
                create.put("Nats-TTL", "60s");
                publish(connections[0], key, create);
                return connection -> {
                    String get = request(connection, "$JS.API.STREAM.MSG.GET.KV_leases",
                            "{\"last_by_subj\":\"$KV.leases." + key + "\"}");
                    long seq = JSON.readTree(get).path("message").path("seq").asLong();
                    Headers headers = new Headers();
                    headers.put("Nats-Expected-Last-Subject-Sequence", Long.toString(seq));
                    headers.put("Nats-TTL", "60s");
                    return ok(publish(connection, key, headers), "\"seq\"");
                };
            };
            case "owner" -> client -> {
                String key = "raw-owned-" + unique.incrementAndGet();
                Headers create = new Headers();
                create.put("Nats-TTL", "600s");
                publish(connections[0], key, create);
                return connection -> ok(request(connection, "$JS.API.STREAM.MSG.GET.KV_leases",
                        "{\"last_by_subj\":\"$KV.leases." + key + "\"}"), "\"message\"");
            };
            case "forward" -> client -> connection -> {
                Message reply = connection.request("bench.echo", PAYLOAD, Duration.ofSeconds(5));
                return reply != null && reply.getData().length == PAYLOAD.length;
            };
            default -> throw new IllegalArgumentException(op);
        };
    }

    private static final byte[] RECORD = "{\"holder\":\"h\",\"acquired_at\":\"2026-11-30T00:00:00Z\",\"ttl_ms\":60000}"
            .getBytes(StandardCharsets.UTF_8);

    private static String publish(Connection connection, String key, Headers headers) throws Exception {
        Message reply = connection.request(NatsMessage.builder().subject("$KV.leases." + key).headers(headers)
                .data(RECORD).build(), Duration.ofSeconds(5));
        return reply == null ? "" : new String(reply.getData(), StandardCharsets.UTF_8);
    }

    private static String request(Connection connection, String subject, String body) throws Exception {
        Message reply = connection.request(subject, body.getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5));
        return reply == null ? "" : new String(reply.getData(), StandardCharsets.UTF_8);
    }

    private static boolean ok(String reply, String mustContain) {
        return reply.contains(mustContain) && !reply.contains("\"error\"");
    }


    /** The service process's user + system CPU time, from /proc (0 when unknown). */
    private long cpuNanos() {
        if (dagnatsPid <= 0) {
            return 0;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(dagnatsPid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return ticks * 10_000_000L; // USER_HZ is 100 on Linux
        } catch (Exception unreadable) {
            return 0;
        }
    }
}
