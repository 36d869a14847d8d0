package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.Operation;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Requests;
import io.nats.client.Connection;
import io.nats.client.Options;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Under the shipped least-privilege configuration, those who only read: the operators' watch
 * reads the stream and a holder's follow reads the change events, and a shard set whose holder may
 * not list takes no shard.
 */
class LeastPrivilegeReadersAcceptanceTest extends LeastPrivilegeServer {

    /**
     * The operator's credentials read the bucket's stream, so {@code leases watch} begins at a
     * revision and can resume; a holder's cannot, so its watch follows the change events instead,
     * says so, and refuses {@code --since} with one line.
     */
    @Test
    void theOperatorsWatchReadsTheStreamAndAHoldersFollowsTheChangeEvents() throws Exception {
        try (NatsServerProcess nats = serverWithConfig(leastPrivilegeConfig());
                DagnatsServer dagnats = DagnatsServer.start(Settings.fromEnvironment(Map.of(
                        "NATS_URL", nats.url(), "NATS_USER", "dagnats", "NATS_PASSWORD", "d-secret")));
                WireClient alice = new WireClient(new Options.Builder().server(nats.url()).userInfo("alice", "a-secret")
                        .build())) {
            List<CompletableFuture<JsonNode>> acquires = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                acquires.add(alice.callAsync("acquire", "{\"key\":\"watched-" + i + "\",\"holder\":\"alice\",\"ttl_ms\":60000}"));
            }
            long first = acquires.stream().map(CompletableFuture::join)
                    .mapToLong(reply -> reply.path("revision").asLong()).min().orElseThrow();
            Map<String, String> asOperator = Map.of("NATS_URL", nats.url(), "NATS_USER", "operator",
                    "NATS_PASSWORD", "op-secret");
            Map<String, String> asAlice = Map.of("NATS_URL", nats.url(), "NATS_USER", "alice", "NATS_PASSWORD", "a-secret");

            try (CliProcess operator = CliProcess.start(asOperator, "leases", "watch", "--since", Long.toString(first),
                    "-o", "json");
                    CliProcess holder = CliProcess.start(asAlice, "leases", "watch", "-o", "json")) {
                operator.awaitOut(Duration.ofSeconds(30), "the operator's 200 lines", out -> out.lines().count() == 200);
                holder.awaitErr(Duration.ofSeconds(30), "the holder's watch to begin", err -> err.contains("(Ctrl-C to stop)"));
                alice.acquire("watched-late", "alice", 60_000);
                holder.awaitOut(Duration.ofSeconds(30), "the holder's line", out -> out.contains("watched-late"));
                operator.awaitOut(Duration.ofSeconds(30), "the operator's line", out -> out.contains("watched-late"));

                assertTrue(operator.err().lines().allMatch(line -> line.startsWith("watching every lease from revision")),
                        operator.err());
                assertTrue(holder.err().contains("dagnats: cannot read the bucket's stream KV_leases (permission denied"),
                        holder.err());
                assertTrue(holder.err().contains("watching the change events instead"), holder.err());
            }
            CliProcess.Result refused = CliProcess.run(asAlice, "leases", "watch", "--since", Long.toString(first));
            assertEquals(1, refused.exitCode(), refused.toString());
            assertEquals(1, refused.err().lines().count(), refused.toString());
            assertTrue(refused.err().startsWith("dagnats: --since reads the bucket's stream KV_leases, which this user"
                    + " cannot: permission denied"), refused.toString());
        }
    }

    /**
     * A holder whose credentials may not list (the configuration's comment says to drop
     * {@code api.leases.list} where no replica uses shard sets) sees no other member of a
     * shard set. It must not take every shard as if alone: it takes none, and says why.
     */
    @Test
    void aShardSetWhoseHolderMayNotListTakesNoShard() throws Exception {
        String withoutList = "\"api.leases.owner\", \"api.leases.forward\", \"api.leases.list\"";
        String config = leastPrivilegeConfig();
        assertTrue(config.contains(withoutList), "alice's publish list as the test expects it");
        config = config.replace(withoutList, "\"api.leases.owner\", \"api.leases.forward\"");
        try (NatsServerProcess nats = serverWithConfig(config);
                DagnatsServer dagnats = DagnatsServer.start(Settings.fromEnvironment(Map.of(
                        "NATS_URL", nats.url(), "NATS_USER", "dagnats", "NATS_PASSWORD", "d-secret")))) {
            Violations aliceViolations = new Violations();
            try (Connection alice = connect(nats.url(), "alice", "a-secret", aliceViolations);
                    Connection operator = connect(nats.url(), "operator", "op-secret", new Violations());
                    LeaseHolder holder = LeaseHolder.builder(alice).holderId("alice").build();
                    ShardSet set = holder.shards("unlisted", 4, Duration.ofSeconds(3), new ShardListener() {
                        @Override
                        public void shardAssigned(int shard, Tenure tenure) {
                        }

                        @Override
                        public void shardRevoked(int shard, OwnershipListener.StopReason why) {
                        }
                    })) {
                // Three refused listings: the set has decided after each of the first two, a second or more ago.
                Polling.until(Duration.ofSeconds(30), "three refused listings", () -> aliceViolations.errors,
                        errors -> errors.stream().filter(error -> error.contains("Permissions Violation")
                                && error.contains(Operation.LIST.subject())).count() >= 3);

                assertEquals(Set.of(), set.owned(), "a replica that cannot see the set took shards as if alone");
                Answers.Listing shards = Replies.decodeList(operator.request(Operation.LIST.subject(),
                        Requests.encode(ListRequest.first(new KeyPrefix("unlisted-shard-"), 10)),
                        Duration.ofSeconds(5)).getData());
                assertEquals(List.of(), shards.leases(), "no shard key is held on the server");
            }
        }
    }
}
