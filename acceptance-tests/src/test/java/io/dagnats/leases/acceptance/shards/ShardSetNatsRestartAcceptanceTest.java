package io.dagnats.leases.acceptance.shards;

import io.dagnats.leases.acceptance.harness.ShardOwners;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.Reliability;
import io.dagnats.leases.acceptance.harness.ReplicaProcesses;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A shard set whose shards are attached to member leases (ADR-044) across a restart of its
 * nats-server: the members lose their connection, their member leases' beliefs end by their
 * deadlines, and after the restart the set settles again; no shard ever has two owners, by each
 * process's own log. A class of its own: it restarts the nats-server its fixture started.
 */
class ShardSetNatsRestartAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final int SHARDS = 12;
    private static final Duration SETTLE = Duration.ofSeconds(60);

    @Test
    void aNatsRestartNeverGivesAShardTwoOwners() throws Exception {
        String set = "natsrestart";
        try (ReplicaProcesses processes = new ReplicaProcesses(service.nats.url())) {
            Map<String, Process> byName = Map.of(
                    "nr-a", processes.start("nr-a", set, TTL, "exact", "shards=" + SHARDS),
                    "nr-b", processes.start("nr-b", set, TTL, "exact", "shards=" + SHARDS));
            settled(set, processes, byName);
            long stopped = System.nanoTime();
            service.nats.stop();
            service.nats.startAgain();
            settled(set, processes, byName);
            long settledMillis = (System.nanoTime() - stopped) / 1_000_000;
            String summary = processes.history().assertSafe();
            Reliability.report("attached shard set, 12 shards over 2 members, nats-server restarted (TTL "
                    + TTL.toMillis() + " ms)", "settled at 6 each, believed, " + settledMillis + " ms after the stop; "
                    + summary);
        }
    }

    /** Every shard listed with an owner, 6 each, and each owner's log believing it owns its shards. */
    private static void settled(String set, ReplicaProcesses processes, Map<String, Process> byName) {
        try {
            Polling.until(SETTLE, set + " to settle at 6 each, believed", () -> owners(set), owners -> {
                Map<String, Integer> counts = new TreeMap<>();
                owners.values().forEach(owner -> counts.merge(owner, 1, Integer::sum));
                return owners.size() == SHARDS && counts.equals(Map.of("nr-a", 6, "nr-b", 6))
                        && owners.entrySet().stream().allMatch(owned -> processes.believesOwner(
                                byName.get(owned.getValue()), set + "-shard-" + owned.getKey()));
            });
        } catch (AssertionError unsettled) {
            throw new AssertionError(unsettled.getMessage() + "\n" + processes.output(), unsettled);
        }
    }

    private static Map<Integer, String> owners(String set) {
        try {
            return ShardOwners.listed(client, set);
        } catch (RuntimeException unavailable) {
            return Map.of(); // dagnats or nats still coming back: an empty listing, polled again
        }
    }
}
