package io.dagnats.leases.demo;

import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.DagnatsException;
import io.dagnats.leases.protocol.Kinds;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;

/**
 * The demo's two roles, each its own process:
 *
 * <pre>
 *   java -jar dagnats-demo.jar replica NAME   keep the lease "demo-leader" and answer forwards
 *   java -jar dagnats-demo.jar caller         forward "who leads?" to the leader once a second
 * </pre>
 *
 * and the shard-set demo's ({@link ShardDemo}): {@code shard-replica NAME LOG},
 * {@code shard-spread}, {@code shard-check DIR}.
 *
 * NATS_URL says where the server is (default nats://127.0.0.1:4222).
 */
public final class Demo {

    private static final String KEY = "demo-leader";
    private static final Duration TTL = Duration.ofSeconds(3);

    private Demo() {
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv().getOrDefault("NATS_URL", "nats://127.0.0.1:4222");
        if (args.length == 2 && args[0].equals("replica")) {
            replica(url, args[1]);
        } else if (args.length == 1 && args[0].equals("caller")) {
            caller(url);
        } else if (args.length == 3 && args[0].equals("shard-replica")) {
            ShardDemo.replica(url, args[1], Path.of(args[2]));
        } else if (args.length == 1 && args[0].equals("shard-spread")) {
            ShardDemo.spread(url);
        } else if (args.length == 2 && args[0].equals("shard-check")) {
            System.exit(ShardCheck.check(Path.of(args[1])));
        } else {
            System.err.println("usage: replica NAME | caller | shard-replica NAME LOG | shard-spread | shard-check DIR");
            System.exit(2);
        }
    }

    private static void replica(String url, String name) throws Exception {
        Connection connection = Nats.connect(url);
        LeaseHolder holder = LeaseHolder.builder(connection)
                .holderPrefix(name)
                .forwardHandler((tenure, payload) ->
                        ("I am " + name + ", leading under fence " + tenure.fence()).getBytes(StandardCharsets.UTF_8))
                .build();
        holder.keep(KEY, TTL, new OwnershipListener() {
            @Override
            public void becameOwner(Tenure tenure) {
                say(name, "now LEADER (holder " + tenure.holder() + ", tenure from fence " + tenure.start() + ")");
            }

            @Override
            public void stoppedOwning(StopReason reason) {
                say(name, "no longer leader: " + reason);
            }
        });
        say(name, "campaigning for " + KEY + " as " + holder.id());
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            holder.close();
            stop.countDown();
        }));
        stop.await();
    }

    private static void caller(String url) throws Exception {
        try (Connection connection = Nats.connect(url);
                LeaseHolder caller = LeaseHolder.builder(connection).holderPrefix("caller").build()) {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Answers.Forward answer = caller.client()
                            .forward(new LeaseKey(KEY), "who leads?".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(2))
                            .join();
                    if (answer instanceof Answers.Forward.Answered answered) {
                        say("caller", "forwarded -> " + new String(answered.reply(), StandardCharsets.UTF_8));
                    } else {
                        Answers.Forward.NotAnswered none = (Answers.Forward.NotAnswered) answer;
                        say("caller", "forward: " + Kinds.wireName(none.kind()) + " (" + none.reason() + ")");
                    }
                } catch (CompletionException failed) {
                    String reason = failed.getCause() instanceof DagnatsException dagnats ? dagnats.getMessage() : String.valueOf(failed.getCause());
                    say("caller", "forward failed: " + reason);
                }
                Thread.sleep(1_000);
            }
        }
    }

    private static void say(String who, String what) {
        System.out.println(LocalTime.now().truncatedTo(ChronoUnit.MILLIS) + " [" + who + "] " + what);
    }
}
