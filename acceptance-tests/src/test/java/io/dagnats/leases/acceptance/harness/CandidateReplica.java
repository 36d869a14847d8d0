package io.dagnats.leases.acceptance.harness;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.Succession;
import io.dagnats.leases.holder.TenureWork;
import io.nats.client.Connection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * {@link ReplicaMain} as a candidate (ADR-042), with {@code candidacy=<priority>:<version>},
 * {@code succession=none|priority|oldest} and {@code brakes=<min-candidacy-ms>:<yield-interval-ms>}:
 * it keeps the key with those options and, on SIGTERM, closes its holder as a user's service
 * would (handing over to the best waiting candidate, or releasing), writes its log's last look,
 * and exits. Its belief's end is written when its tenure's work is cancelled, on the keeper's own
 * thread, which is before any handover is sent; it tells the test {@code owner <holder> <version>}
 * and {@code stopped <reason> <holder>} on {@code test.replica.<name>}.
 */
final class CandidateReplica {

    private CandidateReplica() {
    }

    static void keep(Connection connection, LeaseHolder holder, String name, String key, Duration ttl, OwnershipLog log,
            String candidacy, String succession, String brakes) throws InterruptedException {
        String[] priority = candidacy.split(":", 2);
        String[] brake = brakes.split(":", 2);
        KeepOptions options = KeepOptions.defaults().candidacy(Integer.parseInt(priority[0]), priority[1])
                .succession(switch (succession) {
                    case "priority" -> Succession.highestPriority();
                    case "oldest" -> Succession.oldestVersionFirst();
                    default -> Succession.none();
                })
                .minCandidacy(Duration.ofMillis(Long.parseLong(brake[0])))
                .yieldInterval(Duration.ofMillis(Long.parseLong(brake[1])));
        String id = holder.id().value();
        log.keep(key, id, () -> holder.keep(key, ttl, options, new OwnershipListener() {
            @Override
            public void becameOwner(Tenure tenure, TenureWork work) {
                log.began(key, id, tenure); // written before the test hears of it, however late the sampler looks
                work.onCancel(() -> log.ended(key, id));
                tell(connection, name, "owner " + id + " " + priority[1] + " " + tenure.start());
            }

            @Override
            public void stoppedOwning(StopReason reason) {
                tell(connection, name, "stopped " + reason + " " + id);
            }
        }));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            holder.close();
            try {
                log.close();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }));
        tell(connection, name, "candidate " + id + " " + priority[1]);
        Thread.currentThread().join(); // until SIGTERM runs the hook, or a kill -9
    }

    private static void tell(Connection connection, String name, String what) {
        connection.publish("test.replica." + name, what.getBytes(StandardCharsets.UTF_8));
    }
}
