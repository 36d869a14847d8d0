package io.dagnats.leases.acceptance.shards;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.ShardOwners;
import io.dagnats.leases.acceptance.harness.Opened;
import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.Reliability;
import io.dagnats.leases.acceptance.harness.ReplicaProcesses;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An operator's revoke of one shard key of an attached shard set (ADR-043, ADR-044), as real
 * processes on a real nats-server and dagnats: the shard has no renew of its own, yet its owner
 * stops believing it ({@code LOST}, its listener told) on the revoke's change event, and its
 * belief at the revoked fence ends before any member's belief in the shard at a later fence
 * begins. Safety is read from each process's own record.
 */
class ShardSetRevokedShardAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final int SHARDS = 4;
    private static final Duration SETTLE = Duration.ofSeconds(30);

    private final Opened opened = new Opened();

    @AfterEach
    void close() throws Exception {
        opened.close();
    }

    @Test
    void aRevokedShardKeyEndsItsOwnersBeliefBeforeAnyoneOwnsItAgain() throws Exception {
        String set = "rvk";
        List<String> toldA = told("rvk-a");
        try (ReplicaProcesses processes = new ReplicaProcesses(service.nats.url())) {
            Map<String, Process> byName = Map.of("rvk-a", processes.start("rvk-a", set, TTL, "exact", "shards=" + SHARDS),
                    "rvk-b", processes.start("rvk-b", set, TTL, "exact", "shards=" + SHARDS));
            Map<Integer, String> before = settled(set, processes, byName, Map.of("rvk-a", SHARDS / 2, "rvk-b", SHARDS / 2));
            int shard = before.entrySet().stream().filter(owned -> owned.getValue().equals("rvk-a")).findFirst()
                    .orElseThrow(() -> new AssertionError("rvk-a owns no shard: " + before)).getKey();
            String key = set + "-shard-" + shard;
            long fence = fence(key);

            long revokedAt = System.nanoTime();
            JsonNode revoked = client.revoke(key, "acceptance: an operator frees one shard");
            assertTrue(revoked.path("revoked").asBoolean(), revoked.toString());
            Polling.until(Duration.ofSeconds(5), "rvk-a to say it lost shard " + shard + " (" + key + ")",
                    () -> List.copyOf(toldA), lines -> lines.contains("revoked " + shard + " LOST"));
            long toldMillis = (System.nanoTime() - revokedAt) / 1_000_000;
            Map<Integer, String> after = settled(set, processes, byName, Map.of());
            long newFence = fence(key);
            assertTrue(newFence > fence, key + " owned again at fence " + newFence + ", not above " + fence);

            OwnershipHistory history = processes.history();
            String summary = history.assertSafe();
            List<OwnershipHistory.Window> ofKey = history.windows().stream().filter(window -> window.key().equals(key))
                    .toList();
            OwnershipHistory.Window old = ofKey.stream().filter(window -> window.lastFence() == fence).findFirst()
                    .orElseThrow(() -> new AssertionError("no window at fence " + fence + ": " + ofKey));
            List<OwnershipHistory.Window> later = ofKey.stream().filter(window -> window.firstFence() > fence).toList();
            assertTrue(!later.isEmpty(), "nobody owned " + key + " again: " + ofKey);
            later.forEach(next -> assertTrue(next.fromNanos() >= old.toNanos(),
                    "the revoked owner's belief " + old + " overlaps the next one " + next));
            Reliability.report("attached shard set, a shard key revoked by an operator (TTL " + TTL.toMillis() + " ms)",
                    "its owner told LOST within " + toldMillis + " ms, owned again by " + after.get(shard) + " at fence "
                            + newFence + " after a gap of " + (later.get(0).fromNanos() - old.toNanos()) / 1_000_000
                            + " ms; " + summary);
        }
    }

    /** What replica {@code name} says of its shards ({@code assigned i}, {@code revoked i WHY}), from now. */
    private List<String> told(String name) throws Exception {
        Connection connection = opened.nats(service.nats.url());
        List<String> lines = new CopyOnWriteArrayList<>();
        Dispatcher dispatcher = connection.createDispatcher(
                message -> lines.add(new String(message.getData(), StandardCharsets.UTF_8)));
        dispatcher.subscribe("test.replica." + name);
        connection.flush(Duration.ofSeconds(5));
        return lines;
    }

    private static long fence(String key) {
        for (JsonNode lease : client.call("list", "{\"prefix\":\"" + key + "\"}").path("leases")) {
            if (lease.path("key").asText().equals(key)) {
                return lease.path("revision").asLong();
            }
        }
        throw new AssertionError(key + " is not held");
    }

    /**
     * Polls dagnats' listing until every shard is owned, each by a member whose own log says it
     * believes it, and (unless {@code counts} is empty) each member owns as many as {@code counts} says.
     */
    private static Map<Integer, String> settled(String set, ReplicaProcesses processes, Map<String, Process> byName,
            Map<String, Integer> counts) {
        try {
            return Polling.until(SETTLE, set + " to settle at " + counts + ", each owner believing it", () -> owners(set),
                    owners -> owners.size() == SHARDS && (counts.isEmpty() || counts(owners).equals(counts))
                            && owners.entrySet().stream().allMatch(owned -> byName.containsKey(
                            owned.getValue()) && processes.believesOwner(byName.get(owned.getValue()),
                                    set + "-shard-" + owned.getKey())));
        } catch (AssertionError unsettled) {
            throw new AssertionError(unsettled.getMessage() + "\nlast: " + owners(set) + "\n" + processes.output(),
                    unsettled);
        }
    }

    private static Map<String, Integer> counts(Map<Integer, String> owners) {
        return ShardOwners.counts(owners);
    }

    private static Map<Integer, String> owners(String set) {
        return ShardOwners.listed(client, set);
    }
}
