package io.dagnats.leases.acceptance.operations;

import static io.dagnats.leases.acceptance.harness.WireClient.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.ShardOwners;
import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.Opened;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code dagnats shards [SET]} against real shard sets of the holder library (replicas in this
 * process, each on its own connection) and a real dagnats: the owners, counts and shards without
 * an owner it prints are the ones dagnats' listing holds.
 */
class ShardsCommandAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final int SHARDS = 6;

    private final Opened opened = new Opened();

    @AfterEach
    void stopReplicas() throws Exception {
        opened.close();
    }

    @Test
    void aSettledSetShowsEachMembersShardsAndTheCountTakenFromTheHighestShardHeld() throws Exception {
        for (String id : List.of("orders-a", "orders-b", "orders-c")) {
            replica(id, "orders");
        }
        settled("orders", 3, counts -> counts.size() == 3 && counts.values().stream().allMatch(count -> count == 2));

        Seen seen = whileUnmoved("orders", List.of("shards", "orders", "-o", "json"), List.of("shards", "orders"),
                List.of("shards"));
        Map<Integer, String> owners = seen.owners();
        CliProcess.Result json = seen.results().get(0);
        CliProcess.Result table = seen.results().get(1);
        CliProcess.Result sets = seen.results().get(2);
        // What docs/operating.md shows.
        System.out.println("$ dagnats shards orders\n" + table.out() + "$ dagnats shards\n" + sets.out());

        assertEquals(0, json.exitCode(), json.toString());
        JsonNode set = json(json.out()).path("sets").get(0);
        assertEquals(SHARDS, set.path("shards").asInt(), set.toString());
        assertTrue(set.path("shards_derived").asBoolean());
        assertTrue(set.path("balanced").asBoolean(), set.toString());
        assertEquals(2, set.path("floor").asInt());
        assertEquals(2, set.path("ceiling").asInt());
        assertEquals(owners, shardOwners(set));
        List<String> members = new ArrayList<>();
        set.path("members").forEach(member -> {
            members.add(member.path("holder").asText());
            assertEquals(2, member.path("owns").asInt(), member.toString());
            assertEquals("orders-member-" + member.path("holder").asText(), member.path("member").path("key").asText());
        });
        assertEquals(List.of("orders-a", "orders-b", "orders-c"), members);
        assertEquals(0, set.path("without_owner").size());

        assertEquals(0, table.exitCode(), table.toString());
        List<String> lines = table.outLines();
        assertTrue(lines.get(0).startsWith("shard set orders: 6 shards, 3 members, targets by capacity")
                && lines.get(0).endsWith(": balanced"), table.out());
        for (Map.Entry<Integer, String> owner : owners.entrySet()) {
            assertTrue(lines.stream().anyMatch(line -> line.matches(owner.getKey() + " +" + owner.getValue() + " +\\d+ +\\S+")),
                    "shard " + owner.getKey() + " of " + owner.getValue() + " in:\n" + table.out());
        }
        assertTrue(sets.outLines().stream().anyMatch(line -> line.matches("orders +6 +3 +6 +0 +yes")), sets.out());
    }

    /**
     * A member that takes no shard (here a member lease held over the wire by no replica) keeps its
     * target (ADR-044): the settled replicas heal its share among themselves, so every shard has an
     * owner, and the command says the set is not balanced and who is under and over its target.
     */
    @Test
    void aMemberThatTakesNothingLeavesItsShareToTheOthersAndTheSetUnbalanced() throws Exception {
        JsonNode ghost = client.acquire("stuck-member-ghost", "ghost", 60_000);
        assertTrue(ghost.path("granted").asBoolean(), ghost.toString());
        replica("stuck-a", "stuck");
        replica("stuck-b", "stuck");
        settled("stuck", 3, counts -> counts.size() == 2 && counts.values().stream().allMatch(count -> count == 3));
        Seen seen = whileUnmoved("stuck", List.of("shards", "stuck", "--shards", Integer.toString(SHARDS), "-o", "json"),
                List.of("shards", "stuck", "--shards", Integer.toString(SHARDS)));
        Map<Integer, String> owners = seen.owners();
        CliProcess.Result json = seen.results().get(0);
        CliProcess.Result table = seen.results().get(1);

        // What docs/operating.md shows.
        System.out.println("$ dagnats shards stuck --shards 6\n" + table.out());

        JsonNode set = json(json.out()).path("sets").get(0);
        assertFalse(set.path("balanced").asBoolean(), set.toString());
        assertFalse(set.path("shards_derived").asBoolean());
        assertEquals(owners, shardOwners(set));
        assertEquals(SHARDS, owners.size(), owners.toString());
        assertEquals(0, set.path("without_owner").size(), set.toString());
        Map<String, Integer> owns = new HashMap<>();
        Map<String, Integer> targets = new HashMap<>();
        set.path("members").forEach(member -> {
            owns.put(member.path("holder").asText(), member.path("owns").asInt());
            targets.put(member.path("holder").asText(), member.path("target").asInt());
        });
        assertEquals(Map.of("ghost", 0, "stuck-a", 3, "stuck-b", 3), owns);
        assertEquals(Map.of("ghost", 2, "stuck-a", 2, "stuck-b", 2), targets);

        String header = table.outLines().get(0);
        assertTrue(header.startsWith("shard set stuck: 6 shards, 3 members") && header.contains("not balanced")
                && header.contains("ghost owns 0 (under 2)"), table.out());
    }

    /** The commands' results, and the owners dagnats listed both before and after they ran. */
    private record Seen(Map<Integer, String> owners, List<CliProcess.Result> results) {
    }

    /**
     * Runs the commands until the set's owners were the same before and after: a replica that
     * missed a renewal on a loaded machine may move a shard meanwhile, and the test compares
     * what the commands print with what the listing holds.
     */
    @SafeVarargs
    private static Seen whileUnmoved(String set, List<String>... commands) {
        return Polling.until(SETTLE, "the commands to run while no shard of " + set + " moved", () -> {
            Map<Integer, String> before = owners(set);
            List<CliProcess.Result> results = new ArrayList<>();
            for (List<String> command : commands) {
                results.add(cli(command.toArray(String[]::new)));
            }
            return before.equals(owners(set)) ? new Seen(before, results) : null;
        }, seen -> seen != null);
    }

    private void replica(String id, String set) throws Exception {
        LeaseHolder holder = opened.holder(service.nats.url(), id);
        opened.add(holder.shards(set, SHARDS, TTL, Duration.ofMillis(200), new ShardListener() {
            @Override
            public void shardAssigned(int shard, Tenure tenure) {
            }

            @Override
            public void shardRevoked(int shard, OwnershipListener.StopReason why) {
            }
        }));
    }

    /** Polls dagnats' listing until {@code members} member leases are held and the owners' counts satisfy {@code done}. */
    private static Map<Integer, String> settled(String set, int members,
            java.util.function.Predicate<Map<String, Integer>> done) {
        return Polling.until(SETTLE, set + " to settle", () -> owners(set),
                owners -> client.call("list", "{\"prefix\":\"" + set + "-member-\"}").path("leases").size() == members
                        && done.test(counts(owners)));
    }

    private static Map<Integer, String> owners(String set) {
        return ShardOwners.listed(client, set);
    }

    private static Map<String, Integer> counts(Map<Integer, String> owners) {
        return ShardOwners.counts(owners);
    }

    private static Map<Integer, String> shardOwners(JsonNode set) {
        Map<Integer, String> owners = new TreeMap<>();
        set.path("shard_owners").forEach(owner -> owners.put(owner.path("shard").asInt(), owner.path("holder").asText()));
        return owners;
    }

    private static CliProcess.Result cli(String... args) {
        return CliProcess.run(service.nats.url(), args);
    }

}
