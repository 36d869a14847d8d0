package io.dagnats.leases.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dagnats.leases.benchmarks.ComparedSteps.Step;
import io.dagnats.leases.benchmarks.ComparedSteps.StepFactory;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closed-loop clients, each issuing its next request when the last one is answered, over the
 * benchmark's shared connections; each measured window adds its requests, latencies, errors
 * and the processes' costs (the service, nats-server, the relay) to a {@link Run}.
 */
final class ClosedLoop {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Connection[] connections;
    private final ProcessCost service;
    private final ProcessCost server;
    private final ProcessCost relay;
    private final Recording recording;

    ClosedLoop(Connection[] connections, ProcessCost service, ProcessCost server, ProcessCost relay,
            Recording recording) {
        this.connections = connections;
        this.service = service;
        this.server = server;
        this.relay = relay;
        this.recording = recording;
    }

    /** What one kind of step did over all its windows in a row. */
    static final class Run {
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
    void run(Run run, Duration window, int clients, StepFactory factory, String recorded) throws Exception {
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
}
