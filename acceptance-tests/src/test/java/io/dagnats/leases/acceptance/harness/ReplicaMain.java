package io.dagnats.leases.acceptance.harness;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.ForwardHandler;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import io.dagnats.leases.holder.ShardSetOptions;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Subscription;
import java.lang.management.ManagementFactory;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A replica in its own JVM, for tests that stop or kill a real process:
 * {@code ReplicaMain <nats-url> <holder> <key> <ttl-ms> <ownership-log> [exact] [wait]}.
 *
 * <p>{@code holder} is a prefix (a random suffix makes the id unique) unless
 * {@code exact} is given, as a replica restarted with its own fixed id would run.
 * With {@code wait} it connects, says {@code ready} on {@code test.replica.<holder>}
 * and starts keeping the key only when told to on {@code test.go.<holder>}, so a
 * test can place that moment precisely. It records its own belief of ownership
 * in the {@link OwnershipLog} file, answers forwards with its holder id, and while
 * it believes it owns the key it does "work": takes the fence, works for a
 * second, then writes to the test's sink on {@code test.sink.<key>} with that fence.
 *
 * <p>With {@code handle=<ms>} its forward handler is a workload instead: it writes down each
 * request it processes, the moment its handler is entered, in {@code <ownership-log>.forwards}
 * ({@code <nanos> <incarnation> <request> <tenure-start> <fence>}, the request being the payload
 * as text, one flushed line each), works {@code ms} milliseconds, and answers the request.
 *
 * <p>With {@code candidacy=<priority>:<version>} it is a candidate ({@link CandidateReplica}).
 *
 * <p>With {@code shards=<M>} it is instead a replica of the shard set named {@code key}
 * with M shards ({@link #keepShards}), of capacity {@code capacity=<c>} (default 1).
 */
public final class ReplicaMain {

    private ReplicaMain() {
    }

    public static void main(String[] args) throws Exception {
        Connection connection = Nats.connect(args[0]);
        String name = args[1];
        String key = args[2];
        Duration ttl = Duration.ofMillis(Long.parseLong(args[3]));
        Path logFile = Path.of(args[4]);
        boolean exact = hasFlag(args, "exact");
        String incarnation = name + "@" + ManagementFactory.getRuntimeMXBean().getPid();
        Optional<String> handle = flagValue(args, "handle=");
        ForwardHandler handler = handle.isPresent()
                ? loggingHandler(Path.of(args[4] + ".forwards"), incarnation,
                        Duration.ofMillis(Long.parseLong(handle.get())))
                : (tenure, payload) -> ("served by " + name).getBytes(StandardCharsets.UTF_8);
        LeaseHolder.Builder builder = LeaseHolder.builder(connection).forwardHandler(handler);
        LeaseHolder holder = (exact ? builder.holderId(name) : builder.holderPrefix(name)).build();
        // Sampling from before the holder can own anything, so its first belief has a previous look.
        OwnershipLog log = OwnershipLog.toFile(logFile, incarnation);
        if (hasFlag(args, "wait")) {
            Subscription go = connection.subscribe("test.go." + name);
            connection.flush(Duration.ofSeconds(5));
            connection.publish("test.replica." + name, "ready".getBytes(StandardCharsets.UTF_8));
            go.nextMessage(Duration.ZERO);
        }
        Optional<String> candidacy = flagValue(args, "candidacy=");
        if (candidacy.isPresent()) {
            CandidateReplica.keep(connection, holder, name, key, ttl, log, candidacy.get(),
                    flagValue(args, "succession=").orElse("none"), flagValue(args, "brakes=").orElse("10000:60000"));
            return;
        }
        Optional<String> shards = flagValue(args, "shards=");
        if (shards.isPresent()) {
            int capacity = flagValue(args, "capacity=").map(Integer::parseInt).orElse(1);
            keepShards(connection, holder, name, key, Integer.parseInt(shards.get()), capacity, ttl, log);
            return;
        }
        KeptLease lease = log.keep(key, holder.id().value(), () -> holder.keep(key, ttl, new OwnershipListener() {
            @Override
            public void becameOwner(Tenure tenure) {
                connection.publish("test.replica." + name, ("owner " + holder.id() + " " + tenure.start())
                        .getBytes(StandardCharsets.UTF_8));
            }

            @Override
            public void stoppedOwning(StopReason reason) {
                connection.publish("test.replica." + name, ("stopped " + reason).getBytes(StandardCharsets.UTF_8));
            }
        }));
        while (true) {
            Optional<Fence> fence = lease.fence();
            if (fence.isEmpty()) {
                Thread.sleep(50);
                continue;
            }
            // The work a paused process wakes up in the middle of: it still holds the fence it took.
            Thread.sleep(1_000);
            connection.request("test.sink." + key,
                    (fence.get().revision() + " " + holder.id()).getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(2));
        }
    }

    /**
     * Writes each request down as its handler is entered (the moment it is processed, whatever
     * happens next), then works {@code work}: the processed-request record the forward test
     * judges, written by this process alone.
     */
    private static ForwardHandler loggingHandler(Path file, String incarnation, Duration work) throws IOException {
        Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        return (tenure, payload) -> {
            long entered = System.nanoTime();
            String request = new String(payload, StandardCharsets.UTF_8);
            synchronized (writer) {
                writer.write(entered + " " + incarnation + " " + request + " " + tenure.start().revision() + " "
                        + tenure.fence().revision() + "\n");
                writer.flush();
            }
            // The simulated workload: a handler that takes a while, as real work does.
            Thread.sleep(work.toMillis());
            return request.getBytes(StandardCharsets.UTF_8);
        };
    }

    /**
     * A replica of shard set {@code set}: says {@code assigned <i>} and {@code revoked <i> <why>}
     * on {@code test.replica.<name>}, logs its belief in every shard, and on SIGTERM leaves the
     * set as a service stopping would (drains and releases), then exits.
     */
    private static void keepShards(Connection connection, LeaseHolder holder, String name, String set, int count,
            int capacity, Duration ttl, OwnershipLog log) throws InterruptedException {
        // Watched before the set starts, so no belief begins unseen.
        AtomicReference<ShardSet> shards = new AtomicReference<>();
        for (int shard = 0; shard < count; shard++) {
            int watched = shard;
            log.watch(ShardSet.shardKey(set, shard), holder.id().value(),
                    () -> Optional.ofNullable(shards.get()).flatMap(started -> started.tenure(watched)));
        }
        shards.set(holder.shards(set, count, ttl, Duration.ofMillis(200), ShardSetOptions.defaults().capacity(capacity),
                new ShardListener() {
            @Override
            public void shardAssigned(int shard, Tenure tenure) {
                log.began(ShardSet.shardKey(set, shard), holder.id().value(), tenure);
                connection.publish("test.replica." + name, ("assigned " + shard).getBytes(StandardCharsets.UTF_8));
            }

            @Override
            public void shardRevoked(int shard, OwnershipListener.StopReason why) {
                log.ended(ShardSet.shardKey(set, shard), holder.id().value());
                connection.publish("test.replica." + name, ("revoked " + shard + " " + why)
                        .getBytes(StandardCharsets.UTF_8));
            }
        }));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            holder.close();
            try {
                connection.flush(Duration.ofSeconds(2));
                log.close();
            } catch (Exception ignored) {
                // stopping anyway
            }
        }));
        Thread.currentThread().join();
    }

    private static Optional<String> flagValue(String[] args, String prefix) {
        for (int i = 5; i < args.length; i++) {
            if (args[i].startsWith(prefix)) {
                return Optional.of(args[i].substring(prefix.length()));
            }
        }
        return Optional.empty();
    }

    private static boolean hasFlag(String[] args, String flag) {
        for (int i = 5; i < args.length; i++) {
            if (args[i].equals(flag)) {
                return true;
            }
        }
        return false;
    }
}
