package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.Answers;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Subscription;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

/** Replicas using the holder library against a real service on a real nats-server. */
class HolderLibraryAcceptanceTest extends HolderLibraryReplicas {

    @Test
    void threeReplicasCampaignAndExactlyOneLeads() throws Exception {
        List<Replica> replicas = replicas(3, "leader");

        Replica leader = Polling.until(Duration.ofSeconds(10), "a leader",
                () -> owners(replicas), owners -> owners.size() == 1).get(0);

        // Over two TTLs (several renewals), never two leaders, and the leader keeps its tenure.
        long until = System.nanoTime() + 2 * TTL.toNanos();
        long lastFence = 0;
        while (System.nanoTime() < until) {
            List<Replica> owners = owners(replicas);
            assertTrue(owners.size() <= 1, "two leaders at once");
            if (owners.size() == 1) {
                assertEquals(leader, owners.get(0));
                long fence = leader.lease.fence().map(f -> f.revision()).orElse(lastFence);
                assertTrue(fence >= lastFence, "the fence went down");
                lastFence = fence;
            }
            Polling.pause();
        }
        assertTrue(leader.lease.isOwner());
        assertTrue(lastFence > leader.lease.tenure().orElseThrow().start().revision(), "no renewal raised the fence");
        assertEquals(List.of("owner@" + leader.lease.tenure().orElseThrow().start()), leader.events);
    }

    @Test
    void whenTheLeadersProcessDiesAnotherLeadsWithinTtlPlusTwoSeconds() throws Exception {
        List<Replica> replicas = replicas(3, "leader");
        Replica leader = Polling.until(Duration.ofSeconds(10), "a leader",
                () -> owners(replicas), owners -> owners.size() == 1).get(0);
        long deadFence = leader.lease.fence().orElseThrow().revision();

        long killed = System.nanoTime();
        leader.connection.close(); // the process is gone: no release, no renew
        List<Replica> survivors = replicas.stream().filter(replica -> replica != leader).toList();
        Replica next = Polling.until(TTL.plusSeconds(4), "a new leader",
                () -> owners(survivors), owners -> owners.size() == 1).get(0);
        long failoverMillis = (System.nanoTime() - killed) / 1_000_000;

        assertTrue(failoverMillis <= TTL.plusSeconds(2).toMillis(), "failover took " + failoverMillis + " ms");
        assertTrue(next.lease.fence().orElseThrow().revision() > deadFence);
        assertFalse(leader.lease.isOwner());
    }

    @Test
    void whenTheServiceStallsTheLeaderStopsByItsDeadlineBeforeTheKeyExpires() throws Exception {
        Replica leader = new Replica("solo", "stall-key", null);
        Polling.until(Duration.ofSeconds(10), "ownership", leader.lease::isOwner, owner -> owner);
        Connection watcher = Nats.connect(service.nats.url());
        cleanup.add(watcher::close);
        Subscription changes = watcher.subscribe("dagnats.lease.changed.stall-key");
        watcher.flush(Duration.ofSeconds(5));

        service.stopDagnats(); // renews now go unanswered

        Message expiry = null;
        long deadline = System.nanoTime() + TTL.plusSeconds(10).toNanos();
        while (expiry == null && System.nanoTime() < deadline) {
            Message event = changes.nextMessage(Duration.ofMillis(200));
            if (event != null && "MaxAge".equals(event.getHeaders().getFirst("Nats-Marker-Reason"))) {
                expiry = event;
            }
        }
        long expiredAt = System.nanoTime();
        assertNotNull(expiry, "the server never expired the key");
        assertFalse(leader.lease.isOwner());
        long stoppedAt = leader.told.firstStoppedAtNanos();
        assertTrue(stoppedAt != 0, "the leader never stopped acting as owner: " + leader.events);
        assertTrue(stoppedAt < expiredAt, "the leader stopped after the key expired on the server");
        assertEquals("stopped:DEADLINE_PASSED", leader.events.get(1), leader.events.toString());
    }

    @Test
    void aPausedHolderThatWakesAfterExpiryIsRejectedAndRefusedByFence() throws Exception {
        FencedSink sink = new FencedSink();
        ScheduledExecutorService pausable = Executors.newSingleThreadScheduledExecutor();
        Replica sleeper = new Replica("sleeper", "paused-key", pausable);
        Polling.until(Duration.ofSeconds(10), "the sleeper to own", sleeper.lease::isOwner, owner -> owner);
        long sleepersFence = sleeper.lease.fence().orElseThrow().revision();
        assertTrue(sink.write(sleepersFence, "sleeper", "before the pause"));

        // A GC pause: the sleeper stops renewing, holding a write it prepared with its fence.
        CountDownLatch wake = SchedulerPause.block(pausable);
        Replica successor = new Replica("successor", "paused-key", null);
        Polling.until(TTL.plusSeconds(5), "the successor to take over", successor.lease::isOwner, owner -> owner);
        long successorsFence = successor.lease.fence().orElseThrow().revision();
        assertTrue(successorsFence > sleepersFence);
        assertTrue(sink.write(successorsFence, "successor", "after the takeover"));

        wake.countDown();

        assertFalse(sleeper.lease.isOwner());
        assertFalse(sink.write(sleepersFence, "sleeper", "the write it held through the pause"));
        assertEquals(List.of("sleeper", "successor"),
                sink.accepted().stream().map(FencedSink.Write::writer).toList());
        // A forward dagnats sent to the sleeper before the takeover (to its incarnation's inbox, as the
        // lease named it), arriving late, is rejected.
        Headers late = new Headers();
        late.put("Dagnats-Lease-Fence", Long.toString(sleepersFence));
        Message rejected = successor.connection.request(NatsMessage.builder()
                .subject("dagnats.lease.incarnation." + sleeper.holderName() + "."
                        + sleeper.holder.incarnation().value() + ".paused-key")
                .headers(late).data(new byte[0]).build(), Duration.ofSeconds(5));
        assertEquals("stale", rejected.getHeaders().getFirst("Dagnats-Lease-Reject"));
        assertEquals(0, rejected.getData().length);
        // And forwards now reach the successor.
        Answers.Forward forwarded = successor.holder.client()
                .forward(new LeaseKey("paused-key"), "hi".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(2)).join();
        Answers.Forward.Answered answered = assertInstanceOf(Answers.Forward.Answered.class, forwarded);
        assertEquals(successor.holderName(), answered.holder().value());
        Polling.until(Duration.ofSeconds(5), "the sleeper to notice", () -> sleeper.events,
                events -> events.contains("stopped:DEADLINE_PASSED"));
    }
}
