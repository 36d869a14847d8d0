package io.dagnats.leases.benchmarks;

import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Nats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One client renewing one lease back to back over the wire, as a holder does:
 * the renew latency a store setting costs (scripts/bench-sync.sh runs it
 * against a server with the default sync_interval and one with
 * {@code sync_interval: always}). Prints one line: the label, the count and
 * the quantiles in microseconds.
 *
 * <p>Arguments: label, renews (default 3000), warm-up renews (default 300).
 * Environment: NATS_URL.
 */
public final class RenewLatency {

    private static final Pattern REVISION = Pattern.compile("\"revision\":(\\d+)");

    private RenewLatency() {
    }

    public static void main(String[] args) throws Exception {
        String label = args.length > 0 ? args[0] : "renew";
        int renews = args.length > 1 ? Integer.parseInt(args[1]) : 3000;
        int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        String key = "latency-" + ProcessHandle.current().pid();
        try (Connection connection = Nats.connect(System.getenv().getOrDefault("NATS_URL", "nats://127.0.0.1:4222"))) {
            long revision = revision(call(connection, "acquire",
                    "{\"key\":\"" + key + "\",\"holder\":\"bench\",\"ttl_ms\":60000}"));
            Latencies latencies = new Latencies();
            for (int i = 0; i < warmUp + renews; i++) {
                long sent = System.nanoTime();
                String answer = call(connection, "renew",
                        "{\"key\":\"" + key + "\",\"holder\":\"bench\",\"revision\":" + revision + "}");
                long took = System.nanoTime() - sent;
                revision = revision(answer);
                if (i >= warmUp) {
                    latencies.add(took);
                }
            }
            call(connection, "release", "{\"key\":\"" + key + "\",\"holder\":\"bench\",\"revision\":" + revision + "}");
            System.out.printf("%s: %d renews, one client: p50 %.0f us, p90 %.0f us, p99 %.0f us, p99.9 %.0f us, max %.0f us%n",
                    label, renews, latencies.micros(0.5), latencies.micros(0.9), latencies.micros(0.99),
                    latencies.micros(0.999), latencies.micros(1.0));
        }
    }

    private static String call(Connection connection, String operation, String body) throws Exception {
        Message reply = connection.request(LeaseSubjects.API_PREFIX + operation, body.getBytes(StandardCharsets.UTF_8),
                Duration.ofSeconds(10));
        if (reply == null) {
            throw new IllegalStateException(operation + " got no answer in 10 s");
        }
        return new String(reply.getData(), StandardCharsets.UTF_8);
    }

    private static long revision(String answer) {
        Matcher matcher = REVISION.matcher(answer);
        if (!answer.contains("\"granted\":true") || !matcher.find()) {
            throw new IllegalStateException("not granted: " + answer);
        }
        return Long.parseLong(matcher.group(1));
    }
}
