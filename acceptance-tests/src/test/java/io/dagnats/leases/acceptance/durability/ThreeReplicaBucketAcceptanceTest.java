package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Reliability;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Subscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The bucket on a 3-node cluster: three replicas, lease reads never use direct gets, and a hundred
 * acquirers at once while the stream leader dies have one winner.
 */
class ThreeReplicaBucketAcceptanceTest extends NatsClusterWithTwoInstances {

    @Test
    void theBucketHasThreeReplicasAndLeaseReadsNeverUseDirectGets() throws Exception {
        assertEquals(3, observer.jetStreamManagement().getStreamInfo("KV_leases").getConfiguration().getReplicas());
        Subscription direct = observer.subscribe("$JS.API.DIRECT.GET.>");
        Subscription leader = observer.subscribe("$JS.API.STREAM.MSG.GET.KV_leases");
        observer.flush(Duration.ofSeconds(5));

        try (WireClient client = client()) {
            long revision = client.acquire("reads", "a", 15_000).path("revision").asLong();
            client.acquire("reads", "b", 15_000);
            client.owner("reads");
            long renewed = client.renew("reads", "a", revision).path("revision").asLong();
            client.call("forward", "{\"key\":\"reads\",\"payload\":\"\",\"timeout_ms\":200}");
            client.release("reads", "a", renewed);
            observer.flush(Duration.ofSeconds(5));
        }

        assertTrue(leader.nextMessage(Duration.ofSeconds(2)) != null, "no leader read seen: the probe is blind");
        assertEquals(null, direct.nextMessage(Duration.ofMillis(500)), "dagnats issued a direct get");
    }

    @Test
    void aHundredConcurrentAcquirersWhileTheStreamLeaderDiesHaveOneWinner() throws Exception {
        String leader = cluster.streamLeader(observer, "KV_leases");
        try (WireClient client = client()) {
            List<CompletableFuture<JsonNode>> calls = new ArrayList<>();
            int[] unavailable = new int[1];
            for (int i = 0; i < 100; i++) {
                calls.add(acquireUntilAnswered(client, "h" + i, unavailable));
                if (i == 30) {
                    cluster.node(leader).kill();
                }
            }
            CompletableFuture.allOf(calls.toArray(new CompletableFuture[0])).get(120, TimeUnit.SECONDS);

            List<String> winners = new ArrayList<>();
            List<String> named = new ArrayList<>();
            for (CompletableFuture<JsonNode> call : calls) {
                JsonNode reply = call.join();
                String lease = reply.path("holder").asText() + "@" + reply.path("revision").asLong();
                (reply.path("granted").asBoolean() ? winners : named).add(lease);
            }
            Reliability.report("100 acquirers while the stream leader dies", "winners " + winners
                    + ", unavailable answers retried " + unavailable[0]);
            assertEquals(1, winners.size(), "winners: " + winners);
            assertTrue(named.stream().allMatch(winners.get(0)::equals), "another holder named: " + named);
            JsonNode owner = client.owner("crowd");
            assertEquals(winners.get(0), owner.path("holder").asText() + "@" + owner.path("revision").asLong());
        }
    }

    /** As a caller should: retry acquire after unavailable (or no answer), 20 ms apart, until a definite answer. */
    private static CompletableFuture<JsonNode> acquireUntilAnswered(WireClient client, String holder, int[] unavailable) {
        String body = "{\"key\":\"crowd\",\"holder\":\"" + holder + "\",\"ttl_ms\":60000}";
        return client.callAsync("acquire", body).handle((reply, failure) -> {
            if (failure == null && !reply.has("kind")) {
                return CompletableFuture.completedFuture(reply);
            }
            if (failure == null) {
                assertEquals("unavailable", reply.path("kind").asText(), reply.toString());
            }
            synchronized (unavailable) {
                unavailable[0]++;
            }
            // As a caller should: back off a little before asking again.
            return CompletableFuture.supplyAsync(() -> null, CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS))
                    .thenCompose(ignored -> acquireUntilAnswered(client, holder, unavailable));
        }).thenCompose(next -> next);
    }
}
