package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.NatsCluster;
import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.bootstrap.DagnatsServer;
import java.time.Duration;
import java.util.OptionalLong;
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
class ClusterFaultsAcceptanceTest extends NatsClusterWithTwoInstances {

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
}
