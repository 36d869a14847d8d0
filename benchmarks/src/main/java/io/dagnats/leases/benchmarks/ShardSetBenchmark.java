package io.dagnats.leases.benchmarks;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardBudget;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardQuotas;
import io.dagnats.leases.holder.ShardSetOptions;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.ListingWalk;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Nats;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;

/**
 * Issue 31's figures for a shard set whose shards are attached to member leases (ADR-043/044):
 * {@code SHARDS} (default 10 000) across {@code MEMBERS} member processes (default 10) at
 * {@code TTL_S} (default 15 s). It prints (1) the store writes a second spent keeping them: the
 * bucket stream's last sequence growth over {@code KEEP_S} seconds (default 60), against
 * 3·members/TTL; (2) the time from a kill -9 of a member holding M/N shards until every shard has
 * an owner again, against TTL + 1 s; (3) the shards moved when one more member joins, grouped in
 * rounds (moved events with less than 300 ms between them), against the budget and the minimum.
 *
 * <p>With {@code member NAME} as arguments it is one member process instead. Starts no server:
 * NATS_URL names a nats-server with a dagnats serving on it ({@code scripts/bench.sh shards}).
 */
public final class ShardSetBenchmark {

    private static final String SET = "bench";
    /**
     * Between two listings of the set while waiting for it to settle: each lists every shard, and
     * polled faster they would be a load of their own on the dagnats the members list through.
     */
    private static final Duration POLL = Duration.ofSeconds(1);

    private ShardSetBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv().getOrDefault("NATS_URL", "nats://127.0.0.1:4222");
        int shards = Integer.parseInt(System.getenv().getOrDefault("SHARDS", "10000"));
        Duration ttl = Duration.ofSeconds(Long.parseLong(System.getenv().getOrDefault("TTL_S", "15")));
        ShardBudget budget = new ShardBudget(Integer.parseInt(System.getenv().getOrDefault("BUDGET_ABSOLUTE", "250")), 0.1);
        if (args.length == 2 && args[0].equals("member")) {
            member(url, args[1], shards, ttl, budget);
            return;
        }
        int members = Integer.parseInt(System.getenv().getOrDefault("MEMBERS", "10"));
        int keepSeconds = Integer.parseInt(System.getenv().getOrDefault("KEEP_S", "60"));
        try (Connection connection = Nats.connect(url)) {
            LeaseClient client = new LeaseClient(connection);
            List<Process> processes = new ArrayList<>();
            for (int i = 0; i < members; i++) {
                processes.add(start("m" + (char) ('a' + i)));
            }
            try {
                long started = System.nanoTime();
                Map<String, Integer> spread = await(client, shards, members, Duration.ofMinutes(10));
                System.out.printf(Locale.ROOT, "settled: %d shards over %d members in %d ms: %s%n", shards, members,
                        (System.nanoTime() - started) / 1_000_000, spread);

                List<LeaseChange> heal = heal(connection);
                long before = Streams.lastSequence(connection);
                Thread.sleep(keepSeconds * 1_000L);
                long after = Streams.lastSequence(connection);
                double perSecond = (after - before) / (double) keepSeconds;
                System.out.printf(Locale.ROOT, "keep-alive: %.2f store writes/s over %d s (members' own leases: 3*%d/%d"
                        + " = %.2f/s; goal within 2x; a lease per shard would be 3*%d/%d = %.0f/s)%n", perSecond, keepSeconds,
                        members, ttl.toSeconds(), 3.0 * members / ttl.toSeconds(), shards, ttl.toSeconds(),
                        3.0 * shards / ttl.toSeconds());
                Map<LeaseChange.Kind, Integer> kinds = new TreeMap<>();
                heal.forEach(change -> kinds.merge(change.kind(), 1, Integer::sum));
                System.out.println("  the set's events meanwhile, renewals left out: " + kinds);

                List<LeaseChange> moves = follow(connection);
                Set<String> held = heldBy(client, "ma");
                heal.clear();
                Instant killedAt = Instant.now();
                long killed = System.nanoTime();
                processes.remove(0).destroyForcibly();
                await(client, shards, members - 1, Duration.ofMinutes(2));
                System.out.printf(Locale.ROOT, "kill -9 of a member holding %d shards: every shard owned again after %d ms"
                        + " by listings (goal: TTL + 1 s = %d ms)%n", held.size(), (System.nanoTime() - killed) / 1_000_000,
                        ttl.toMillis() + 1_000);
                Optional<Instant> ended = heal.stream().filter(change -> change.key().value().equals(SET + "-member-ma")
                        && change.kind().endsLease()).map(LeaseChange::time).findFirst();
                Map<String, Instant> reattached = new HashMap<>();
                heal.stream().filter(change -> held.contains(change.key().value()) && !change.kind().endsLease())
                        .forEach(change -> reattached.putIfAbsent(change.key().value(), change.time()));
                Optional<Instant> last = reattached.values().stream().max(Instant::compareTo);
                System.out.printf(Locale.ROOT, "  by events: its member lease ended after %s ms; %d of its %d shards"
                        + " attached again, the last %s ms after the kill (%s ms after the member's end)%n",
                        ended.map(at -> Long.toString(Duration.between(killedAt, at).toMillis())).orElse("?"),
                        reattached.size(), held.size(),
                        last.map(at -> Long.toString(Duration.between(killedAt, at).toMillis())).orElse("?"),
                        last.flatMap(at -> ended.map(end -> Long.toString(Duration.between(end, at).toMillis()))).orElse("?"));

                Map<String, Integer> settled = await(client, shards, members - 1, Duration.ofMinutes(2));
                moves.clear();
                Map<HolderId, Integer> capacities = new HashMap<>();
                Map<HolderId, Integer> owned = new HashMap<>();
                settled.forEach((holder, count) -> {
                    capacities.put(new HolderId(holder), 1);
                    owned.put(new HolderId(holder), count);
                });
                capacities.put(new HolderId("mz"), 1);
                int minimum = ShardQuotas.of(shards, capacities, owned).entrySet().stream()
                        .mapToInt(quota -> Math.max(0, owned.getOrDefault(quota.getKey(), 0) - quota.getValue())).sum();
                long joined = System.nanoTime();
                processes.add(start("mz"));
                Map<String, Integer> rebalanced = await(client, shards, members, Duration.ofMinutes(5));
                List<Integer> rounds = rounds(moves, Duration.ofMillis(300));
                System.out.printf(Locale.ROOT, "a member joins: %d shards moved in %d ms (minimum %d), in bursts of %s"
                        + " (budget %d a round); spread %s%n", moves.size(), (System.nanoTime() - joined) / 1_000_000, minimum,
                        rounds, budget.perRound(shards), rebalanced);
            } finally {
                processes.forEach(Process::destroyForcibly);
            }
        }
    }

    private static Process start(String name) throws Exception {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), ShardSetBenchmark.class.getName(), "member", name)
                .inheritIO().start();
    }

    /** One member process: joins the set and keeps it until killed. */
    private static void member(String url, String name, int shards, Duration ttl, ShardBudget budget) throws Exception {
        Connection connection = Nats.connect(url);
        LeaseHolder holder = LeaseHolder.builder(connection).holderId(name).build();
        holder.shards(SET, shards, ttl, Duration.ofSeconds(1), ShardSetOptions.defaults().budget(budget), new ShardListener() {
            @Override
            public void shardAssigned(int shard, Tenure tenure) {
            }

            @Override
            public void shardRevoked(int shard, OwnershipListener.StopReason why) {
            }
        });
        Thread.currentThread().join();
    }

    /** Waits until every shard is listed with an owner and {@code members} members own them, each within one of M/N. */
    private static Map<String, Integer> await(LeaseClient client, int shards, int members, Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        Map<String, Integer> counts = Map.of();
        while (System.nanoTime() < deadline) {
            List<LeaseView> listed;
            try {
                listed = ListingWalk.walkAsync(client::list, new KeyPrefix(SET + "-shard-"), ListRequest.MAX_PAGE_SIZE).get();
            } catch (ExecutionException busy) {
                System.out.println("a listing failed (" + busy.getCause().getMessage() + "); listing again");
                Thread.sleep(POLL.toMillis());
                continue;
            }
            counts = new HashMap<>();
            for (LeaseView lease : listed) {
                counts.merge(lease.holder().value(), 1, Integer::sum);
            }
            boolean even = counts.values().stream().allMatch(count -> Math.abs(count - shards / members) <= 1);
            if (listed.size() == shards && counts.size() == members && even) {
                return counts;
            }
            Thread.sleep(POLL.toMillis());
        }
        throw new IllegalStateException("not settled after " + limit + ": " + counts);
    }

    /** The moved events of the set, from now. */
    private static List<LeaseChange> follow(Connection connection) throws Exception {
        List<LeaseChange> moves = new CopyOnWriteArrayList<>();
        Dispatcher dispatcher = connection.createDispatcher(message -> LeaseChange.read(message.getSubject(),
                name -> message.getHeaders() == null ? null : message.getHeaders().getFirst(name), Instant.now())
                .filter(change -> change.kind() == LeaseChange.Kind.MOVED && change.key().value().startsWith(SET + "-shard-"))
                .ifPresent(moves::add));
        dispatcher.subscribe(LeaseSubjects.CHANGED_WILDCARD);
        connection.flush(Duration.ofSeconds(5));
        return moves;
    }

    /** The shard keys {@code holder} holds now, by a listing (listed again while listings time out, for a minute). */
    private static Set<String> heldBy(LeaseClient client, String holder) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (true) {
            try {
                Set<String> held = new HashSet<>();
                for (LeaseView lease : ListingWalk.walkAsync(client::list, new KeyPrefix(SET + "-shard-"),
                        ListRequest.MAX_PAGE_SIZE).get()) {
                    if (lease.holder().value().equals(holder)) {
                        held.add(lease.key().value());
                    }
                }
                return held;
            } catch (ExecutionException busy) {
                if (System.nanoTime() > deadline) {
                    throw busy;
                }
                System.out.println("a listing failed (" + busy.getCause().getMessage() + "); listing again");
            }
        }
    }

    /** The set's change events from now that a heal is timed by: the member keys' and the shards' (not renewals). */
    private static List<LeaseChange> heal(Connection connection) throws Exception {
        List<LeaseChange> heard = new CopyOnWriteArrayList<>();
        Dispatcher dispatcher = connection.createDispatcher(message -> LeaseChange.read(message.getSubject(),
                name -> message.getHeaders() == null ? null : message.getHeaders().getFirst(name), Instant.now())
                .filter(change -> change.key().value().startsWith(SET + "-") && change.kind() != LeaseChange.Kind.RENEWED)
                .ifPresent(heard::add));
        dispatcher.subscribe(LeaseSubjects.CHANGED_WILDCARD);
        connection.flush(Duration.ofSeconds(5));
        return heard;
    }

    /** Moves grouped in bursts: a gap of {@code gap} or more starts a new one. */
    private static List<Integer> rounds(List<LeaseChange> moves, Duration gap) {
        List<Integer> rounds = new ArrayList<>();
        Instant last = null;
        for (LeaseChange move : moves) {
            if (last == null || Duration.between(last, move.time()).compareTo(gap) >= 0) {
                rounds.add(0);
            }
            rounds.set(rounds.size() - 1, rounds.get(rounds.size() - 1) + 1);
            last = move.time();
        }
        return rounds;
    }
}
