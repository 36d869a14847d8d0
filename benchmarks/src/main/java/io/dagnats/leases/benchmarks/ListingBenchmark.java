package io.dagnats.leases.benchmarks;

import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.Operation;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Requests;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How long an operator's full listing takes: {@code LIST_LEASES} live leases
 * (default 100 000) walked through {@code api.leases.list} in pages of
 * {@code LIST_PAGE_SIZE} (default 1000), {@code LIST_WALKS} times (default 5),
 * each walk checked to have listed every lease once.
 *
 * <p>Starts nothing. NATS_URL names the nats-server; a dagnats must already serve
 * on it ({@code scripts/bench.sh list} starts both).
 */
public final class ListingBenchmark {

    private ListingBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv().getOrDefault("NATS_URL", "nats://127.0.0.1:4222");
        int leases = Integer.parseInt(System.getenv().getOrDefault("LIST_LEASES", "100000"));
        int pageSize = Integer.parseInt(System.getenv().getOrDefault("LIST_PAGE_SIZE", "1000"));
        int walks = Integer.parseInt(System.getenv().getOrDefault("LIST_WALKS", "5"));
        try (Connection connection = Nats.connect(new Options.Builder().server(url).reportNoResponders().build())) {
            long filling = System.nanoTime();
            Filler.fill(connection, 0, leases);
            System.out.printf(Locale.ROOT, "filled %d leases in %d ms%n", leases, (System.nanoTime() - filling) / 1_000_000);
            walk(connection, pageSize, leases); // unmeasured: JIT
            System.out.printf(Locale.ROOT, "%-6s %8s %6s %9s %9s %9s %9s%n",
                    "walk", "leases", "pages", "total ms", "page p50", "page p99", "page max");
            for (int i = 1; i <= walks; i++) {
                Walk walk = walk(connection, pageSize, leases);
                System.out.printf(Locale.ROOT, "%-6d %8d %6d %9d %9.1f %9.1f %9.1f%n", i, walk.leases, walk.pages.size(),
                        walk.totalNanos / 1_000_000, percentile(walk.pages, 0.50), percentile(walk.pages, 0.99),
                        percentile(walk.pages, 1.0));
            }
        }
    }

    private record Walk(int leases, long totalNanos, List<Long> pages) {
    }

    /** One full walk; fails unless it listed each of the {@code expected} filler leases. */
    private static Walk walk(Connection connection, int pageSize, int expected) throws Exception {
        Set<String> keys = new HashSet<>();
        List<Long> pages = new ArrayList<>();
        ListRequest request = ListRequest.first(KeyPrefix.ALL, pageSize);
        long started = System.nanoTime();
        while (true) {
            long sent = System.nanoTime();
            Message reply = connection.request(Operation.LIST.subject(), Requests.encode(request), Duration.ofSeconds(10));
            if (reply == null) {
                throw new IllegalStateException("no reply to a list request within 10 s");
            }
            Answers.Listing page = Replies.decodeList(reply.getData());
            pages.add(System.nanoTime() - sent);
            for (LeaseView lease : page.leases()) {
                keys.add(lease.key().value());
            }
            if (page.nextCursor().isEmpty()) {
                break;
            }
            request = request.next(page.nextCursor().get());
        }
        long total = System.nanoTime() - started;
        if (keys.size() < expected) {
            throw new IllegalStateException("the walk listed " + keys.size() + " leases, not " + expected);
        }
        return new Walk(keys.size(), total, pages);
    }

    /** In milliseconds. */
    private static double percentile(List<Long> nanos, double quantile) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        int index = (int) Math.min(sorted.size() - 1, Math.ceil(quantile * sorted.size()) - 1);
        return sorted.get(Math.max(0, index)) / 1e6;
    }
}
