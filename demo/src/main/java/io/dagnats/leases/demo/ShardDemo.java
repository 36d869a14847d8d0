package io.dagnats.leases.demo;

import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListRequest;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The shard-set demo's roles, each its own process:
 *
 * <pre>
 *   java -jar dagnats-demo.jar shard-replica NAME LOG   a replica of the set "demo" (12 shards)
 *   java -jar dagnats-demo.jar shard-spread             print who owns which shard when that changes
 * </pre>
 *
 * A replica writes its own belief in each shard to LOG ({@link ShardLog}),
 * which {@link ShardCheck} reads at the end.
 */
final class ShardDemo {

    static final String SET = "demo";
    static final int SHARDS = 12;
    static final Duration TTL = Duration.ofSeconds(3);

    private ShardDemo() {
    }

    static void replica(String url, String name, Path logFile) throws Exception {
        Connection connection = Nats.connect(url);
        LeaseHolder holder = LeaseHolder.builder(connection).holderPrefix(name).build();
        String id = holder.id().value();
        AtomicReference<ShardSet> set = new AtomicReference<>();
        ShardLog log = new ShardLog(logFile, id, shard -> set.get() == null ? Optional.empty()
                : set.get().tenure(shard));
        // Looking before the replica joins, so its first shard's start is dated from a look.
        log.start(SHARDS);
        set.set(holder.shards(SET, SHARDS, TTL, Duration.ofMillis(500), new ShardListener() {
            @Override
            public void shardAssigned(int shard, Tenure tenure) {
                log.began(shard, tenure);
                say(name, "+ shard " + shard + " (fence " + tenure.fence() + ")");
            }

            @Override
            public void drain(int shard, Tenure tenure, Duration bound) {
                say(name, "  draining shard " + shard + " to hand it over");
            }

            @Override
            public void shardRevoked(int shard, OwnershipListener.StopReason why) {
                log.ended(shard);
                say(name, "- shard " + shard + " (" + why + ")");
            }
        }));
        say(name, "joined set " + SET + " as " + id);
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            say(name, "leaving: draining and releasing my shards");
            holder.close();
            log.close();
            stop.countDown();
        }));
        stop.await();
    }

    /** Lists the set every 250 ms and prints the spread whenever it changed. */
    static void spread(String url) throws Exception {
        try (Connection connection = Nats.connect(url)) {
            LeaseClient client = new LeaseClient(connection);
            String last = "";
            while (!Thread.currentThread().isInterrupted()) {
                Map<String, TreeSet<Integer>> byOwner = new TreeMap<>();
                TreeSet<Integer> free = new TreeSet<>();
                for (int shard = 0; shard < SHARDS; shard++) {
                    free.add(shard);
                }
                for (LeaseView lease : client.list(ListRequest.first(new KeyPrefix(SET + "-shard-"), 1000)).join()
                        .leases()) {
                    int shard = Integer.parseInt(lease.key().value().substring((SET + "-shard-").length()));
                    free.remove(shard);
                    byOwner.computeIfAbsent(name(lease.holder().value()), ignored -> new TreeSet<>()).add(shard);
                }
                StringBuilder line = new StringBuilder();
                byOwner.forEach((owner, shards) -> line.append(owner).append(' ').append(shards.size())
                        .append(' ').append(shards).append("  "));
                line.append("free ").append(free.isEmpty() ? "-" : free.toString());
                if (!line.toString().equals(last)) {
                    say("spread", line.toString());
                    last = line.toString();
                }
                Thread.sleep(250);
            }
        }
    }

    /** The readable part of a holder id: its prefix, the replica's name. */
    private static String name(String holder) {
        int dash = holder.lastIndexOf('-');
        return dash > 0 ? holder.substring(0, dash) : holder;
    }

    static void say(String who, String what) {
        System.out.println(LocalTime.now().truncatedTo(ChronoUnit.MILLIS) + " [" + who + "] " + what);
    }
}
