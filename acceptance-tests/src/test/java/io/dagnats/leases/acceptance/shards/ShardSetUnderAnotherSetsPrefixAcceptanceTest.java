package io.dagnats.leases.acceptance.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.Reliability;
import io.dagnats.leases.acceptance.harness.ReplicaProcesses;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.ShardOwners;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A shard set lists its keys in one walk of {@code <set>-}, which also matches another set named
 * {@code <set>-...} and plain leases named so. As real processes on a real nats-server and dagnats:
 * a set {@code sib} beside a set {@code sib-eu} and plain leases {@code sib-shard-03},
 * {@code sib-shard-9}, {@code sib-member-sib-z} settles as if alone, and a revoke of one of its shard
 * keys ends its owner's belief though {@code sib-eu}'s shard of the same number stays held. Safety
 * is read from each process's own record.
 */
class ShardSetUnderAnotherSetsPrefixAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final int SHARDS = 4;
    private static final Duration SETTLE = Duration.ofSeconds(30);

    @Test
    void keysOfAnotherSetAndPlainLeasesUnderItsPrefixChangeNoOwnerOfTheSet() throws Exception {
        for (String plain : List.of("sib-shard-03", "sib-shard-9", "sib-member-sib-z")) {
            JsonNode acquired = client.acquire(plain, plain.equals("sib-member-sib-z") ? "sib-z" : "sib-a", 60_000);
            assertTrue(acquired.path("granted").asBoolean(), plain + ": " + acquired);
        }
        try (ReplicaProcesses processes = new ReplicaProcesses(service.nats.url())) {
            Process a = processes.start("sib-a", "sib", TTL, "exact", "shards=" + SHARDS);
            Process b = processes.start("sib-b", "sib", TTL, "exact", "shards=" + SHARDS);
            Process eu = processes.start("sib-a", "sib-eu", TTL, "exact", "shards=" + SHARDS);
            Map<String, Process> byName = Map.of("sib-a", a, "sib-b", b);
            settled("sib-eu", Map.of("sib-a", eu), Map.of("sib-a", SHARDS), processes);
            Map<Integer, String> before = settled("sib", byName, Map.of("sib-a", SHARDS / 2, "sib-b", SHARDS / 2),
                    processes);
            int shard = before.entrySet().stream().filter(owned -> owned.getValue().equals("sib-a")).findFirst()
                    .orElseThrow().getKey();
            String key = "sib-shard-" + shard;

            long stoppedBefore = processes.timesStopped(a, key);
            JsonNode revoked = client.revoke(key, "acceptance: a shard of the set beside sib-eu");
            assertTrue(revoked.path("revoked").asBoolean(), revoked.toString());
            // Its belief ends; it may claim the free shard again at once (its share is 2), so the
            // end is read from its record, not from whether it believes at the moment of a look.
            Polling.until(SETTLE, "sib-a to stop believing " + key + " while sib-eu-shard-" + shard + " stays held",
                    () -> processes.timesStopped(a, key), stopped -> stopped > stoppedBefore);
            settled("sib", byName, Map.of(), processes);
            assertEquals(Map.of("sib-a", SHARDS), ShardOwners.counts(ShardOwners.listed(client, "sib-eu", SHARDS)),
                    "sib-eu kept its shards");

            String summary = processes.history().assertSafe();
            Reliability.report("attached shard set beside a set named <set>-eu and plain leases under its prefix",
                    summary);
        }
    }

    /** Polls until every shard of {@code set} is owned, each by a replica whose own log says it believes it. */
    private static Map<Integer, String> settled(String set, Map<String, Process> byName, Map<String, Integer> counts,
            ReplicaProcesses processes) {
        try {
            return Polling.until(SETTLE, set + " to settle at " + counts + ", each owner believing it",
                    () -> ShardOwners.listed(client, set, SHARDS),
                    owners -> owners.size() == SHARDS && (counts.isEmpty() || ShardOwners.counts(owners).equals(counts))
                            && owners.entrySet().stream().allMatch(owned -> byName.containsKey(owned.getValue())
                            && processes.believesOwner(byName.get(owned.getValue()), set + "-shard-" + owned.getKey())));
        } catch (AssertionError unsettled) {
            throw new AssertionError(unsettled.getMessage() + "\nlast: " + ShardOwners.listed(client, set, SHARDS)
                    + "\n" + processes.output(), unsettled);
        }
    }
}
