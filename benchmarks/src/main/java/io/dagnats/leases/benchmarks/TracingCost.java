package io.dagnats.leases.benchmarks;

import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.protocol.Answers;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What tracing costs per lease request: the same sequential renew and owner
 * loads against a dagnats with telemetry off (the no-op) and on (the full
 * OpenTelemetry SDK with a batch span processor, exporting to a discarding
 * exporter), alternating rounds so drift on a noisy machine hits both.
 *
 * <p>Starts nothing but the in-process dagnats it measures; NATS_URL names the
 * nats-server (scripts/bench-tracing.sh starts a private one).
 */
public final class TracingCost {

    private static final int WARMUP = 2_000;
    private static final int REQUESTS = 5_000;
    private static final int ROUNDS = 3;

    private TracingCost() {
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv().getOrDefault("NATS_URL", "nats://127.0.0.1:4222");
        Map<String, List<Double>> renewMicros = Map.of("off", new ArrayList<>(), "on", new ArrayList<>());
        Map<String, List<Double>> ownerMicros = Map.of("off", new ArrayList<>(), "on", new ArrayList<>());
        for (int round = 0; round < ROUNDS; round++) {
            for (String mode : List.of("off", "on")) {
                Map<String, String> otel = mode.equals("on")
                        ? Map.of("OTEL_TRACES_EXPORTER", "discard", "OTEL_METRICS_EXPORTER", "none")
                        : Map.of();
                try (DagnatsServer dagnats = DagnatsServer.start(Settings.forUrl(url, otel));
                        Connection connection = Nats.connect(url)) {
                    LeaseClient client = new LeaseClient(connection);
                    double[] figures = measure(client, "bench-" + mode + "-" + round);
                    renewMicros.get(mode).add(figures[0]);
                    ownerMicros.get(mode).add(figures[1]);
                }
            }
        }
        System.out.println();
        System.out.println("tracing cost per request (sequential, 1 client, median of " + ROUNDS + " rounds of "
                + REQUESTS + " requests; p50 latency in microseconds)");
        System.out.printf(Locale.ROOT, "%-8s %12s %12s %12s%n", "request", "tracing off", "tracing on", "cost");
        print("renew", renewMicros);
        print("owner", ownerMicros);
        System.out.println("spans exported (discarded): " + DiscardingSpanExporterProvider.EXPORTED.get());
    }

    private static void print(String name, Map<String, List<Double>> micros) {
        double off = median(micros.get("off"));
        double on = median(micros.get("on"));
        System.out.printf(Locale.ROOT, "%-8s %10.1f us %10.1f us %+10.1f us (%+.1f%%)%n",
                name, off, on, on - off, 100 * (on - off) / off);
    }

    /** @return p50 microseconds of renew, then of owner */
    private static double[] measure(LeaseClient client, String keyName) {
        LeaseKey key = new LeaseKey(keyName);
        HolderId holder = new HolderId("bench");
        Answers.Acquire acquired = client.acquire(key, holder, LeaseTtl.ofSeconds(60)).join();
        Fence fence = acquired.lease().revision();
        long[] renew = new long[REQUESTS];
        for (int i = -WARMUP; i < REQUESTS; i++) {
            long started = System.nanoTime();
            Answers.Renew answer = client.renew(key, holder, fence, Optional.empty()).join();
            long took = System.nanoTime() - started;
            fence = ((Answers.Renew.Renewed) answer).lease().revision();
            if (i >= 0) {
                renew[i] = took;
            }
        }
        long[] owner = new long[REQUESTS];
        for (int i = -WARMUP; i < REQUESTS; i++) {
            long started = System.nanoTime();
            client.owner(key).join();
            if (i >= 0) {
                owner[i] = System.nanoTime() - started;
            }
        }
        client.release(key, holder, fence).join();
        return new double[] {p50(renew) / 1_000.0, p50(owner) / 1_000.0};
    }

    private static double p50(long[] samples) {
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return sorted.get(sorted.size() / 2);
    }
}
