package io.dagnats.leases.benchmarks;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.service.Discovery;
import io.nats.service.EndpointStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What waiting for a held key costs, with the holder library on both sides:
 * one replica keeps {@code key} (renewing every third of {@code WAIT_TTL_MS},
 * default 15 000) and W others keep it too (W from {@code WAIT_WAITERS},
 * default 1,100, spread over up to 10 connections).
 *
 * <ul>
 *   <li>held: for {@code WAIT_WINDOW_MS} (default 60 000) the key stays held;
 *       the acquires the service counted in its own micro stats
 *       ({@code $SRV.STATS.dagnats-api}, endpoint acquire) are all the waiters'.
 *   <li>handover: {@code WAIT_HANDOVERS} times (default 50) the owner drops the
 *       key (a release) and keeps it again as a waiter; measured from the drop
 *       call to the next owner's {@code becameOwner} (its grant and the renew
 *       that confirms it, ADR-027).
 * </ul>
 *
 * <p>Starts nothing. NATS_URL names the nats-server; a dagnats must already serve
 * on it ({@code scripts/bench.sh wait} starts both).
 */
public final class WaitingBenchmark {

    private static final String KEY = "waited";
    private static final int MAX_CONNECTIONS = 10;

    private WaitingBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv().getOrDefault("NATS_URL", "nats://127.0.0.1:4222");
        Duration ttl = Duration.ofMillis(Long.parseLong(System.getenv().getOrDefault("WAIT_TTL_MS", "15000")));
        Duration window = Duration.ofMillis(Long.parseLong(System.getenv().getOrDefault("WAIT_WINDOW_MS", "60000")));
        int handovers = Integer.parseInt(System.getenv().getOrDefault("WAIT_HANDOVERS", "50"));
        System.out.printf(Locale.ROOT, "ttl %d ms (the owner renews every %d ms), held window %d s, %d handovers%n",
                ttl.toMillis(), ttl.toMillis() / 3, window.toSeconds(), handovers);
        System.out.printf(Locale.ROOT, "%7s | %9s %9s %18s | %9s %9s %9s %9s%n", "waiters", "acquires", "renewals",
                "per waiter per min", "handover", "p50 ms", "p99 ms", "max ms");
        for (String waiters : System.getenv().getOrDefault("WAIT_WAITERS", "1,100").split(",")) {
            run(url, Integer.parseInt(waiters.trim()), ttl, window, handovers);
        }
    }

    private static void run(String url, int waiters, Duration ttl, Duration window, int handovers) throws Exception {
        List<Connection> connections = new ArrayList<>();
        List<LeaseHolder> holders = new ArrayList<>();
        BlockingQueue<Integer> becameOwner = new LinkedBlockingQueue<>();
        try {
            for (int i = 0; i < Math.min(MAX_CONNECTIONS, waiters + 1); i++) {
                connections.add(Nats.connect(url));
            }
            Discovery discovery = new Discovery(connections.get(0), 2_000, 1);
            long acquiresAtStart = count(discovery, "acquire");
            for (int i = 0; i <= waiters; i++) {
                LeaseHolder holder = LeaseHolder.builder(connections.get(i % connections.size()))
                        .holderPrefix("waiter" + i).build();
                holders.add(holder);
                holder.keep(KEY, ttl, listener(i, becameOwner));
                if (i == 0) {
                    take(becameOwner, "the first owner");
                }
            }
            // Every waiter has asked once and was told the key is held; from here on it waits.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (count(discovery, "acquire") < acquiresAtStart + waiters + 1 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }

            long acquiresBefore = count(discovery, "acquire");
            long renewsBefore = count(discovery, "renew");
            long started = System.nanoTime();
            Thread.sleep(window.toMillis()); // a measured window: the key stays held throughout
            long acquires = count(discovery, "acquire") - acquiresBefore;
            long renewals = count(discovery, "renew") - renewsBefore;
            double minutes = (System.nanoTime() - started) / 60e9;

            Latencies latencies = new Latencies();
            int owner = 0;
            for (int i = 0; i < handovers; i++) {
                long dropped = System.nanoTime();
                holders.get(owner).drop(KEY);
                int next = take(becameOwner, "the next owner");
                latencies.add(System.nanoTime() - dropped);
                holders.get(owner).keep(KEY, ttl, listener(owner, becameOwner));
                owner = next;
            }
            System.out.printf(Locale.ROOT, "%7d | %9d %9d %18.2f | %9d %9.1f %9.1f %9.1f%n", waiters, acquires,
                    renewals, acquires / (double) waiters / minutes, handovers, latencies.micros(0.50) / 1_000,
                    latencies.micros(0.99) / 1_000, latencies.micros(1.0) / 1_000);
        } finally {
            for (LeaseHolder holder : holders) {
                holder.close();
            }
            for (Connection connection : connections) {
                connection.close();
            }
        }
    }

    private static OwnershipListener listener(int index, BlockingQueue<Integer> becameOwner) {
        return new OwnershipListener() {
            @Override
            public void becameOwner(Tenure tenure) {
                becameOwner.add(index);
            }

            @Override
            public void stoppedOwning(StopReason reason) {
            }
        };
    }

    private static int take(BlockingQueue<Integer> becameOwner, String what) throws InterruptedException {
        Integer index = becameOwner.poll(60, TimeUnit.SECONDS);
        if (index == null) {
            throw new IllegalStateException("no " + what + " within 60 s");
        }
        return index;
    }

    /** The requests the service counted on {@code endpoint} since it started, from its own micro stats. */
    private static long count(Discovery discovery, String endpoint) {
        return discovery.stats(LeaseSubjects.SERVICE_NAME).stream()
                .flatMap(stats -> stats.getEndpointStatsList().stream())
                .filter(stats -> stats.getName().equals(endpoint))
                .mapToLong(EndpointStats::getNumRequests)
                .sum();
    }
}
