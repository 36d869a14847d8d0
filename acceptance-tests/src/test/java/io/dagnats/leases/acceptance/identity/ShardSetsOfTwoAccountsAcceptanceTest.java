package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.IdentityNats;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import io.nats.client.Nats;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Identity mode (ADR-036): a shard set lists its keys in one walk of {@code <set>-}, which dagnats
 * scopes to the caller's account. Two accounts each run a set of the same name with members of the
 * same holder id; each settles as if alone, neither is told a shard lost by the other's keys, and an
 * operator's revoke of A's shard ends A's belief and nothing of B's. Read from each holder's own
 * record (its listener, {@code owned()}).
 */
class ShardSetsOfTwoAccountsAcceptanceTest extends IdentityModeReplicas {

    private static final Duration SET_TTL = Duration.ofSeconds(3);
    private static final int SHARDS = 4;
    private static final Set<Integer> EVERY = Set.of(0, 1, 2, 3);
    private static final Duration SETTLE = Duration.ofSeconds(30);

    @Test
    void aSetOfOneAccountNeitherSeesNorLosesByTheSameNamedSetOfAnother() throws Exception {
        identityModeReplica();
        List<String> toldA = new CopyOnWriteArrayList<>();
        List<String> toldB = new CopyOnWriteArrayList<>();
        ShardSet inA = join("alice", toldA);
        ShardSet inB = join("bob", toldB);
        Polling.until(SETTLE, "both sets to own every shard", () -> List.of(inA.owned(), inB.owned()),
                owned -> owned.equals(List.of(EVERY, EVERY)));

        // Three listing periods of each: a listing that showed the other account's keys would
        // show each shard key written by another since its grant here (LOST).
        long settledAt = System.nanoTime();
        Polling.until(SETTLE, "a TTL of listings after settling", () -> System.nanoTime() - settledAt,
                elapsed -> elapsed > SET_TTL.toNanos() && !inB.owned().isEmpty());
        assertEquals(List.of(), lost(toldA), "A's set, alone in A");
        assertEquals(List.of(), lost(toldB), "B's set, alone in B");

        WireClient operator = as("operator");
        JsonNode revoked = operator.call("revoke", WireClient.object().put("key", "orders-shard-1").put("account", "A")
                .put("reason", "acceptance: A's shard 1 only"));
        assertTrue(revoked.path("revoked").asBoolean(), revoked.toString());
        Polling.until(SETTLE, "A to lose shard 1 and own it again", () -> List.copyOf(toldA),
                told -> told.contains("revoked 1 LOST") && told.lastIndexOf("assigned 1") > told.indexOf("revoked 1 LOST"));
        assertEquals(List.of(), lost(toldB), "B's shard 1 is another key: " + toldB);
        assertEquals(EVERY, inB.owned());
    }

    private ShardSet join(String user, List<String> told) throws Exception {
        LeaseHolder holder = open(LeaseHolder.builder(open(Nats.connect(IdentityNats.options(nats, user).build())))
                .holderId("h").build());
        return open(holder.shards("orders", SHARDS, SET_TTL, new ShardListener() {
            @Override
            public void shardAssigned(int shard, Tenure tenure) {
                told.add("assigned " + shard);
            }

            @Override
            public void shardRevoked(int shard, StopReason why) {
                told.add("revoked " + shard + " " + why);
            }
        }));
    }

    private static List<String> lost(List<String> told) {
        return told.stream().filter(line -> line.startsWith("revoked")).toList();
    }
}
