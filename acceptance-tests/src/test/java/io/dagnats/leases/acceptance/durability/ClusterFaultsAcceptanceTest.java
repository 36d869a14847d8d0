package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.History;
import io.dagnats.leases.acceptance.harness.NatsCluster;
import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.Reliability;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.Subscription;
import io.nats.client.api.MessageInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A 3-node cluster with the bucket at 3 replicas and two dagnats instances in
 * the queue group, under faults. After each scenario: no two holder-library
 * replicas ever believed they owned one key at once ({@link OwnershipHistory},
 * from their own records and deadlines); the service's answers give each fence
 * one holder and grow each holder's fences; and no acknowledged write was lost, by exact
 * revision ({@link StoredRevisions#checkAcknowledgedWritesKept}): each key's last
 * message is exactly the highest revision a holder was acknowledged, with that
 * holder, or a later one explained by an expiry marker or by a write a caller
 * was told of; and no revision was reported stored for two different writes.
 *
 * <p>The nodes run with JetStream's default {@code sync_interval} (fsync every
 * 2 minutes): a kill -9 ends the processes, not the kernel, and a stream
 * stores each write with write(2) before acknowledging it, so acknowledged
 * writes survive it in the page cache; measured in docs/reliability.md. What
 * {@code sync_interval: always} protects against, a power or kernel loss on
 * every node, no test here can cause.
 */
class ClusterFaultsAcceptanceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final Duration RENEW_EVERY = Duration.ofMillis(250);

    private NatsCluster cluster;
    private final List<DagnatsServer> dagnats = new ArrayList<>();
    private Connection observer;
    private StoredRevisions stored;

    @BeforeEach
    void start() throws Exception {
        cluster = NatsCluster.start();
        for (int i = 0; i < 2; i++) {
            dagnats.add(DagnatsServer.start(Settings.fromEnvironment(Map.of(
                    "NATS_URL", cluster.urls(), "DAGNATS_LEASE_REPLICAS", "3"))));
        }
        dagnats.forEach(instance -> assertTrue(instance.status() instanceof BucketStatus.Ready, instance.status().describe()));
        observer = Nats.connect(new Options.Builder().servers(cluster.urls().split(",")).maxReconnects(-1)
                .reconnectWait(Duration.ofMillis(50)).build());
        stored = new StoredRevisions(observer);
    }

    @AfterEach
    void stop() throws Exception {
        try {
            if (stored != null) {
                stored.close();
            }
            if (observer != null) {
                observer.close();
            }
            for (DagnatsServer instance : dagnats) {
                instance.close();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    private WireClient client() {
        return new WireClient(cluster.urls());
    }

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
    void killingTheStreamLeaderDuringRenewsGrantsNothingTwiceAndLosesNoAcknowledgedWrite() throws Exception {
        faultDuringLoad("stream leader kill -9", history -> {
            String leader = cluster.streamLeader(observer, "KV_leases");
            assertNotNull(leader);
            cluster.node(leader).kill();
            return leader;
        });
    }

    @Test
    void killingAFollowerDuringRenewsKeepsServing() throws Exception {
        faultDuringLoad("follower kill -9", history -> {
            String leader = cluster.streamLeader(observer, "KV_leases");
            NatsCluster.Node follower = cluster.nodes.stream().filter(node -> !node.name.equals(leader)).findFirst()
                    .orElseThrow();
            follower.kill();
            return follower.name;
        });
    }

    @Test
    void killingEveryNodeAndStartingThemAgainLosesNoAcknowledgedWrite() throws Exception {
        // 16 keys: about 64 writes a second, so writes are in flight when every node dies.
        faultDuringLoad("whole cluster kill -9 and restart", 16, history -> {
            cluster.nodes.forEach(NatsCluster.Node::kill);
            long allDead = System.nanoTime();
            // Every answer recorded by now was given before the last node died.
            long acknowledgedBefore = history.highestAcknowledged().values().stream()
                    .mapToLong(Long::longValue).max().orElse(0);
            cluster.nodes.forEach(NatsCluster.Node::start);
            cluster.awaitJetStream(Duration.ofSeconds(60));
            // Had the restarted stream lost its tail, it would hand those revisions
            // out again: the first revision it stores after the restart would be at
            // or below one acknowledged before the kill.
            long firstAfter = Polling.until(Duration.ofSeconds(60), "a write stored after the restart",
                    () -> stored.lowestNewRevisionSince(allDead), OptionalLong::isPresent).getAsLong();
            assertTrue(firstAfter > acknowledgedBefore, "after the restart the stream stored revision " + firstAfter
                    + " again, though revision " + acknowledgedBefore + " was acknowledged before the kill");
            return "all three nodes (highest revision acknowledged before the kill " + acknowledgedBefore
                    + ", first stored after the restart " + firstAfter + ")";
        });
    }

    @Test
    void killingADagnatsInstanceMidLoadLeavesTheOtherAnswering() throws Exception {
        faultDuringLoad("dagnats instance crash", history -> {
            DagnatsServer crashed = dagnats.remove(0);
            crashed.crash();
            return "dagnats-0";
        });
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

    @FunctionalInterface
    private interface Fault {
        /** @return what was hit, for the report */
        String inject(History history) throws Exception;
    }

    private void faultDuringLoad(String scenario, Fault fault) throws Exception {
        faultDuringLoad(scenario, 4, fault);
    }

    /** @param keys how many keys the load keeps, each contended by two holders renewing every 250 ms */
    private void faultDuringLoad(String scenario, int keys, Fault fault) throws Exception {
        History history = new History();
        String safety;
        try (LeaseWorkload load = new LeaseWorkload(history).start(cluster.urls(), keys, 2, TTL, RENEW_EVERY)
                .keep(cluster.urls(), 2, 3, TTL)) {
            Polling.until(Duration.ofSeconds(20), "steady renewals",
                    () -> history.answers().stream().filter(a -> a.outcome().equals("renewed")).count(),
                    renewed -> renewed >= 20);
            long faultAt = System.nanoTime();
            String target = fault.inject(history);
            long injectedAt = System.nanoTime();
            long resumedAt = Polling.until(Duration.ofSeconds(60), "writes after the fault",
                    () -> load.lastWriteAt.get(), lastWrite -> lastWrite > injectedAt);
            // Keep the load on a little past recovery so takeovers and retries play out.
            long settle = System.nanoTime() + TTL.toNanos();
            Polling.until(TTL.plusSeconds(5), "the load to run on", System::nanoTime, now -> now > settle);
            load.close();
            // Judged from what each keeper believed, with its own deadline: never two owners at once.
            OwnershipHistory ownership = load.ownership();
            safety = ownership.assertSafe();
            assertTrue(ownership.windows().stream().map(OwnershipHistory.Window::key).distinct().count() == 2,
                    "every kept key had an owner at some point: " + ownership.windows());

            Map<String, Long> outcomesDuring = new TreeMap<>(history.between(faultAt, resumedAt).stream()
                    .collect(Collectors.groupingBy(History.Answer::outcome,
                            Collectors.counting())));
            Reliability.report(scenario, "target " + target
                    + ", writes unavailable for " + (resumedAt - faultAt) / 1_000_000 + " ms"
                    + " (fault injection took " + (injectedAt - faultAt) / 1_000_000 + " ms)"
                    + ", answers meanwhile " + outcomesDuring + ", all answers " + history.outcomes()
                    + "; keepers: " + safety);
        }
        history.checkInvariants();
        assertFalse(history.outcomes().containsKey("internal"), history.outcomes().toString());
        List<StoredRevisions.Write> acknowledged = new ArrayList<>();
        Set<StoredRevisions.Write> observed = new HashSet<>();
        for (History.Answer answer : history.answers()) {
            StoredRevisions.Write write = new StoredRevisions.Write(answer.key(), answer.holder(), answer.revision());
            if (answer.acknowledgedWrite()) {
                acknowledged.add(write);
            } else if (answer.outcome().equals("held")) {
                observed.add(write);
            }
        }
        Polling.until(Duration.ofSeconds(30), "leader reads of every key", () -> acknowledged.stream()
                .map(StoredRevisions.Write::key).distinct().allMatch(key -> lastMessage(key) != null), read -> read);
        stored.checkAcknowledgedWritesKept(acknowledged, observed, this::lastMessage);
        stored.checkNoRevisionNamedTwoWrites();
    }

    private MessageInfo lastMessage(String key) {
        try {
            return observer.jetStreamManagement().getLastMessage("KV_leases", "$KV.leases." + key);
        } catch (Exception notYet) {
            return null;
        }
    }
}
