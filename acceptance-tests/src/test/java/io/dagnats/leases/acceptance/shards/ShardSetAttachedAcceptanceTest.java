package io.dagnats.leases.acceptance.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.ShardOwners;
import io.dagnats.leases.acceptance.harness.Opened;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.Reliability;
import io.dagnats.leases.acceptance.harness.ReplicaProcesses;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.protocol.LeaseChange;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Shard sets whose shards are keys attached to the member leases (ADR-043, ADR-044), as real
 * processes on a real nats-server and dagnats: a member's end frees all its shards at once, each
 * with its own event, and the other member holds them within the TTL and a second; fences per
 * shard only grow; a member paused past its TTL never shares a shard; capacity 2 ends with twice
 * the shards of capacity 1. Spreads are read from dagnats' listing, safety from each process's log.
 */
class ShardSetAttachedAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final int SHARDS = 12;
    private static final Duration SETTLE = Duration.ofSeconds(30);

    private final Opened opened = new Opened();

    @AfterEach
    void close() throws Exception {
        opened.close();
    }

    @Test
    void aMembersEndFreesAllItsShardsAtOnceEachWithAnEventAndFencesOnlyGrow() throws Exception {
        String set = "free";
        List<LeaseChange> changes = follow(set);
        try (ReplicaProcesses processes = new ReplicaProcesses(service.nats.url())) {
            Map<String, Process> byName = new HashMap<>();
            for (String name : List.of("free-a", "free-b")) {
                byName.put(name, processes.start(name, set, TTL, "exact", "shards=" + SHARDS));
            }
            Map<Integer, String> before = settled(set, Map.of("free-a", 6, "free-b", 6), processes, byName);

            long killed = System.nanoTime();
            ReplicaProcesses.kill(byName.get("free-a"));
            settled(set, Map.of("free-b", 12), processes, byName);
            long healedMillis = (System.nanoTime() - killed) / 1_000_000;

            List<LeaseChange> freed = Polling.until(SETTLE, "a freed event for each of free-a's 6 shards",
                    () -> changes.stream().filter(change -> change.kind() == LeaseChange.Kind.FREED).toList(),
                    events -> events.size() >= 6);
            Instant first = freed.stream().map(LeaseChange::time).min(Instant::compareTo).orElseThrow();
            Instant last = freed.stream().map(LeaseChange::time).max(Instant::compareTo).orElseThrow();
            assertTrue(Duration.between(first, last).toMillis() < 1_000, "freed at once: " + freed);
            before.forEach((shard, owner) -> assertEquals(owner.equals("free-a"), freed.stream()
                    .anyMatch(change -> change.key().value().equals(set + "-shard-" + shard)), "shard " + shard));
            assertTrue(healedMillis < TTL.toMillis() + 1_000 + 1_000,
                    "free-b held all 12 " + healedMillis + " ms after the kill, TTL " + TTL.toMillis() + " ms");
            assertFencesOnlyGrow(changes);
            String summary = processes.history().assertSafe();
            Reliability.report("attached shard set, 12 shards, one of two members killed -9 (TTL " + TTL.toMillis() + " ms)",
                    "6 freed events within " + Duration.between(first, last).toMillis() + " ms, all 12 held by the other "
                            + healedMillis + " ms after the kill; " + summary);
        }
    }

    @Test
    void aMemberPausedPastItsTtlNeverSharesAShardWithTheOther() throws Exception {
        String set = "pause";
        try (ReplicaProcesses processes = new ReplicaProcesses(service.nats.url())) {
            Process paused = processes.start("pause-a", set, TTL, "exact", "shards=" + SHARDS);
            Map<String, Process> byName = Map.of("pause-a", paused,
                    "pause-b", processes.start("pause-b", set, TTL, "exact", "shards=" + SHARDS));
            settled(set, Map.of("pause-a", 6, "pause-b", 6), processes, byName);
            ReplicaProcesses.signal(paused, "STOP");
            settled(set, Map.of("pause-b", 12), processes, byName);
            ReplicaProcesses.signal(paused, "CONT");
            settled(set, Map.of("pause-a", 6, "pause-b", 6), processes, byName);
            String summary = processes.history().assertSafe();
            Reliability.report("attached shard set, 12 shards, a member SIGSTOPped past its TTL (TTL " + TTL.toMillis()
                    + " ms)", "its shards went to the other and half came back; " + summary);
        }
    }

    @Test
    void aMemberOfCapacityTwoEndsWithTwiceTheShardsOfOneOfCapacityOne() throws Exception {
        String set = "cap";
        try (ReplicaProcesses processes = new ReplicaProcesses(service.nats.url())) {
            Map<String, Process> byName = Map.of(
                    "cap-one", processes.start("cap-one", set, TTL, "exact", "shards=" + SHARDS, "capacity=1"),
                    "cap-two", processes.start("cap-two", set, TTL, "exact", "shards=" + SHARDS, "capacity=2"));
            settled(set, Map.of("cap-one", 4, "cap-two", 8), processes, byName);
            processes.history().assertSafe();
        }
    }

    /** Every change event of the set's keys, from now. */
    private List<LeaseChange> follow(String set) throws Exception {
        Connection connection = opened.nats(service.nats.url());
        List<LeaseChange> changes = new CopyOnWriteArrayList<>();
        Dispatcher dispatcher = connection.createDispatcher(message -> LeaseChange.read(message.getSubject(),
                name -> message.getHeaders() == null ? null : message.getHeaders().getFirst(name), Instant.now())
                .filter(change -> change.key().value().startsWith(set + "-shard-")).ifPresent(changes::add));
        dispatcher.subscribe("dagnats.lease.changed.>");
        connection.flush(Duration.ofSeconds(5));
        return changes;
    }

    /** A shard's fence (the revision of each write that gave it an owner) only grows. */
    private static void assertFencesOnlyGrow(List<LeaseChange> changes) {
        Map<String, Long> last = new HashMap<>();
        for (LeaseChange change : changes) {
            if (change.kind() == LeaseChange.Kind.ATTACHED || change.kind() == LeaseChange.Kind.MOVED) {
                Long before = last.put(change.key().value(), change.sequence());
                assertTrue(before == null || Long.compareUnsigned(change.sequence(), before) > 0,
                        change.key() + " fence " + change.sequence() + " after " + before);
            }
        }
        assertTrue(!last.isEmpty(), "no attach seen: " + changes);
    }

    /**
     * Polls dagnats' listing until every shard is owned and each holder owns exactly what
     * {@code counts} says, and each owner's own log says it believes it owns its shards.
     */
    private Map<Integer, String> settled(String set, Map<String, Integer> counts, ReplicaProcesses processes,
            Map<String, Process> byName) {
        try {
            return Polling.until(SETTLE, set + " to settle at " + counts + ", each owner believing it", () -> owners(set),
                    owners -> {
                        Map<String, Integer> seen = new TreeMap<>();
                        owners.values().forEach(owner -> seen.merge(owner, 1, Integer::sum));
                        return owners.size() == SHARDS && seen.equals(new TreeMap<>(counts))
                                && owners.entrySet().stream().allMatch(owned -> processes.believesOwner(
                                        byName.get(owned.getValue()), set + "-shard-" + owned.getKey()));
                    });
        } catch (AssertionError unsettled) {
            throw new AssertionError(unsettled.getMessage() + "\nlast: " + owners(set) + "\n" + processes.output(),
                    unsettled);
        }
    }

    private static Map<Integer, String> owners(String set) {
        return ShardOwners.listed(client, set);
    }
}
