package io.dagnats.leases.acceptance.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Opened;
import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.OwnershipLog;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.Reliability;
import io.dagnats.leases.acceptance.harness.ReplicaProcesses;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Shard sets of the holder library on a real nats-server and dagnats: M shards
 * spread over the live replicas, a join that moves only the shards it must, a
 * replica killed with {@code kill -9} whose shards the others take within its TTL,
 * and a rolling restart that the ownership history checker finds safe. The
 * spread is read from dagnats' own listing; safety from the replicas' own logs.
 */
class ShardSetAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final int SHARDS = 12;
    private static final Duration SETTLE = Duration.ofSeconds(30);

    private final Opened opened = new Opened();
    private final List<String> ownershipLines = OwnershipLog.lines();

    @AfterEach
    void stopReplicas() throws Exception {
        opened.close();
    }

    @Test
    void threeReplicasSettleAtFourEachAndAFourthJoiningMovesExactlyThreeShards() throws Exception {
        String set = "join";
        List<Replica> replicas = new ArrayList<>();
        for (String name : List.of("join-a", "join-b", "join-c")) {
            replicas.add(new Replica(name, set));
        }
        Map<Integer, String> before = settledAt(set, 3, 4);
        // The listing shows a grant before its holder's confirming renew and listener: wait for those too.
        Polling.until(SETTLE, "every replica's listener to hold its 4 shards", () -> events(replicas),
                ignored -> replicas.stream().allMatch(replica -> heldByListener(replica) == 4));
        int assignedBefore = assigned(replicas);

        long joined = System.nanoTime();
        Replica fourth = new Replica("join-d", set);
        replicas.add(fourth);
        Map<Integer, String> after = settledAt(set, 4, 3);
        long settleMillis = (System.nanoTime() - joined) / 1_000_000;
        Polling.until(SETTLE, "every replica's listener to hold its 3 shards", () -> events(replicas),
                ignored -> replicas.stream().allMatch(replica -> heldByListener(replica) == 3));

        int moved = 0;
        for (int shard = 0; shard < SHARDS; shard++) {
            if (!before.get(shard).equals(after.get(shard))) {
                moved++;
            }
        }
        assertEquals(3, moved, "before " + before + ", after " + after);
        assertEquals(3, assigned(replicas) - assignedBefore, "only the newcomer took shards: " + events(replicas));
        assertEquals(3, after.values().stream().filter(fourth.holder.id().value()::equals).count());
        for (Replica replica : replicas) {
            assertEquals(3, replica.set.owned().size(), replica.holder.id() + " believes it owns " + replica.set.owned());
        }
        String summary = OwnershipHistory.fromLines(ownershipLines).assertSafe();
        Reliability.report("shard set, 12 shards, a fourth replica joins three (TTL " + TTL.toMillis() + " ms)",
                "settled at 3 each in " + settleMillis + " ms, " + moved + " shards moved; " + summary);
    }

    @Test
    void aReplicaKilledWithKillNineHasItsShardsTakenWithinItsTtl() throws Exception {
        String set = "kill";
        try (ReplicaProcesses processes = new ReplicaProcesses(service.nats.url())) {
            Map<String, Process> byHolder = new HashMap<>();
            for (String name : List.of("kill-a", "kill-b", "kill-c")) {
                byHolder.put(name, processes.start(name, set, TTL, "exact", "shards=" + SHARDS));
            }
            settledAt(set, 3, 4, processes);

            long killed = System.nanoTime();
            ReplicaProcesses.kill(byHolder.get("kill-b"));
            Map<Integer, String> after = settledAt(set, 2, 6, processes);
            long takenMillis = (System.nanoTime() - killed) / 1_000_000;
            assertTrue(!after.containsValue("kill-b"), "the killed replica owns nothing: " + after);
            assertTrue(takenMillis < TTL.toMillis() + 3_000,
                    "its shards were taken " + takenMillis + " ms after the kill, TTL " + TTL.toMillis() + " ms");
            String summary = assertSafe(processes);
            Reliability.report("shard set, 12 shards, one of three replicas killed -9 (TTL " + TTL.toMillis() + " ms)",
                    "its 4 shards taken and settled at 6 each " + takenMillis + " ms after the kill; " + summary);
        }
    }

    @Test
    void aRollingRestartOfEveryReplicaNeverHasTwoOwnersOfAShard() throws Exception {
        String set = "roll";
        try (ReplicaProcesses processes = new ReplicaProcesses(service.nats.url())) {
            List<Process> running = new ArrayList<>();
            for (String name : List.of("roll-a", "roll-b", "roll-c")) {
                running.add(processes.start(name, set, TTL, "shards=" + SHARDS));
            }
            settledAt(set, 3, 4, processes);
            long started = System.nanoTime();
            for (int i = 0; i < running.size(); i++) {
                // A deployment's restart: SIGTERM (the replica drains and releases), then its successor starts.
                ReplicaProcesses.signal(running.get(i), "TERM");
                running.get(i).waitFor();
                running.set(i, processes.start("roll-" + (char) ('a' + i), set, TTL, "shards=" + SHARDS));
                settledAt(set, 3, 4, processes);
            }
            long rollMillis = (System.nanoTime() - started) / 1_000_000;
            String summary = assertSafe(processes);
            Reliability.report("shard set, 12 shards, rolling restart of 3 replicas (TTL " + TTL.toMillis() + " ms)",
                    "settled at 4 each after every restart, " + rollMillis + " ms in all; " + summary);
        }
    }

    /** Polls dagnats' listing until {@code members} member leases are held and each owns {@code each} shards. */
    private Map<Integer, String> settledAt(String set, int members, int each) {
        return settledAt(set, members, each, null);
    }

    private Map<Integer, String> settledAt(String set, int members, int each, ReplicaProcesses processes) {
        try {
            return Polling.until(SETTLE, set + " to settle at " + each + " shards for each of " + members + " members",
                    () -> spread(set), spread -> spread.members == members && spread.owners.size() == SHARDS
                            && spread.counts().values().stream().allMatch(count -> count == each)
                            && spread.counts().size() == members).owners;
        } catch (AssertionError unsettled) {
            throw new AssertionError(unsettled.getMessage() + "\nlast spread: " + spread(set)
                    + (processes == null ? "" : "\n" + processes.output()), unsettled);
        }
    }

    /** Who holds the set's member and shard leases, as dagnats lists them. */
    private record Spread(int members, Map<Integer, String> owners) {
        Map<String, Integer> counts() {
            Map<String, Integer> counts = new HashMap<>();
            owners.values().forEach(owner -> counts.merge(owner, 1, Integer::sum));
            return counts;
        }
    }

    private static Spread spread(String set) {
        int members = client.call("list", "{\"prefix\":\"" + set + "-member-\"}").path("leases").size();
        Map<Integer, String> owners = new TreeMap<>();
        for (JsonNode lease : client.call("list", "{\"prefix\":\"" + set + "-shard-\"}").path("leases")) {
            owners.put(Integer.parseInt(lease.path("key").asText().substring((set + "-shard-").length())),
                    lease.path("holder").asText());
        }
        return new Spread(members, owners);
    }

    private static String assertSafe(ReplicaProcesses processes) {
        OwnershipHistory history = processes.history();
        try {
            return history.assertSafe();
        } catch (AssertionError unsafe) {
            throw new AssertionError(unsafe.getMessage() + "\nwindows: " + history.windows(), unsafe);
        }
    }

    private static int assigned(List<Replica> replicas) {
        return replicas.stream().mapToInt(replica -> replica.assigned.get()).sum();
    }

    /** Shards the replica's listener was told it owns and not told it lost. */
    private static long heldByListener(Replica replica) {
        return replica.events.stream().filter(event -> event.startsWith("+")).count()
                - replica.events.stream().filter(event -> event.startsWith("-")).count();
    }

    private static String events(List<Replica> replicas) {
        StringBuilder all = new StringBuilder();
        replicas.forEach(replica -> all.append(replica.holder.id()).append(' ').append(replica.events).append('\n'));
        return all.toString();
    }

    /** One replica in this process, on its own connection, with an exact holder id. */
    private final class Replica implements ShardListener {
        final LeaseHolder holder;
        volatile ShardSet set;
        final AtomicInteger assigned = new AtomicInteger();
        final List<String> events = new CopyOnWriteArrayList<>();
        final OwnershipLog log;
        final String setName;

        Replica(String id, String setName) throws Exception {
            holder = opened.holder(service.nats.url(), id);
            log = opened.add(OwnershipLog.inMemory(id, ownershipLines));
            this.setName = setName;
            // Watched before the set starts, so no belief begins unseen.
            for (int shard = 0; shard < SHARDS; shard++) {
                int watched = shard;
                log.watch(ShardSet.shardKey(setName, shard), id,
                        () -> set == null ? Optional.empty() : set.tenure(watched));
            }
            set = holder.shards(setName, SHARDS, TTL, Duration.ofMillis(200), this);
        }

        @Override
        public void shardAssigned(int shard, Tenure tenure) {
            log.began(ShardSet.shardKey(setName, shard), holder.id().value(), tenure);
            assigned.incrementAndGet();
            events.add("+" + shard);
        }

        @Override
        public void drain(int shard, Tenure tenure, Duration bound) {
            events.add("drain " + shard);
        }

        @Override
        public void shardRevoked(int shard, OwnershipListener.StopReason why) {
            log.ended(ShardSet.shardKey(setName, shard), holder.id().value());
            events.add("-" + shard + " " + why);
        }
    }
}
