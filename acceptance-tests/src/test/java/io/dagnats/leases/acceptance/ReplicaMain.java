package io.dagnats.leases.acceptance;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * A replica in its own JVM, for tests that stop or kill a real process:
 * {@code ReplicaMain <nats-url> <holder-prefix> <key> <ttl-ms>}. It keeps the
 * lease, answers forwards with its holder id, and while it believes it owns the
 * key it does "work": takes the fence, works for a second, then writes to the
 * test's fenced sink on {@code test.sink.<key>} with that fence.
 */
public final class ReplicaMain {

    private ReplicaMain() {
    }

    public static void main(String[] args) throws Exception {
        Connection connection = Nats.connect(args[0]);
        String key = args[2];
        LeaseHolder holder = LeaseHolder.builder(connection)
                .holderPrefix(args[1])
                .forwardHandler((leaseKey, fence, payload) -> ("served by " + args[1]).getBytes(StandardCharsets.UTF_8))
                .build();
        var lease = holder.keep(key, Duration.ofMillis(Long.parseLong(args[3])), new OwnershipListener() {
            @Override
            public void becameOwner(Tenure tenure) {
                connection.publish("test.replica." + args[1], ("owner " + holder.id() + " " + tenure.start())
                        .getBytes(StandardCharsets.UTF_8));
            }

            @Override
            public void stoppedOwning(StopReason reason) {
                connection.publish("test.replica." + args[1], ("stopped " + reason).getBytes(StandardCharsets.UTF_8));
            }
        });
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
}
