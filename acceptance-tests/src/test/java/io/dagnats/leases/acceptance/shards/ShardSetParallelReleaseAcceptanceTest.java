package io.dagnats.leases.acceptance.shards;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.Opened;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Found by the review of issue 12 (review12c 97dd75e), against ShardSet.giveUp's javadoc ("The drains run at once, and each shard is
 * released as soon as its own drain returns"): the drains do start together, but giveUp joins
 * them one by one in shard order, and releases a shard only when the loop reaches it. A shard
 * whose drain returned at once waited for every lower-numbered shard's drain (up to the bound)
 * before it was released, and the replica taking it over waited as long.
 */
class ShardSetParallelReleaseAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final Duration DRAIN_BOUND = Duration.ofSeconds(10);
    /** Shard 0's flush, inside its bound; shard 1's drain returns at once. */
    private static final Duration FLUSH = Duration.ofSeconds(4);

    private final Opened opened = new Opened();
    private final Map<String, Long> seen = new ConcurrentHashMap<>();

    @AfterEach
    void stop() throws Exception {
        opened.close();
    }

    /**
     * LIVENESS: a leaves; shard 0's drain flushes for 4 s, shard 1's returns at once. Shard 1's
     * release should follow its own drain (well under a second); it follows shard 0's.
     */
    @Test
    void aShardWhoseDrainReturnedIsReleasedWithoutWaitingForAnotherShardsDrain() throws Exception {
        LeaseHolder a = holder("review12c-par-a");
        ShardSet set = a.shards("review12c-par", 2, TTL, DRAIN_BOUND, new Drains());
        Polling.until(Duration.ofSeconds(20), "a to own both shards", set::owned, owned -> owned.equals(Set.of(0, 1)));
        Connection watcher = opened.nats(service.nats.url());
        Dispatcher events = watcher.createDispatcher();
        String shard1 = ShardSet.shardKey("review12c-par", 1);
        events.subscribe(LeaseSubjects.changed(new LeaseKey(shard1)), message -> {
            var headers = message.getHeaders();
            LeaseChange.read(message.getSubject(), name -> headers == null ? null : headers.getFirst(name), Instant.now())
                    .filter(change -> change.kind().endsLease())
                    .ifPresent(change -> seen.putIfAbsent("shard 1 released", System.nanoTime()));
        });
        watcher.flush(Duration.ofSeconds(5));

        set.close();
        Polling.until(Duration.ofSeconds(20), "shard 1's release event", () -> seen.get("shard 1 released"),
                at -> at != null);

        long lag = (seen.get("shard 1 released") - seen.get("drain(1) returned")) / 1_000_000;
        assertTrue(lag < 1_000, "shard 1 was released " + lag + " ms after its own drain returned"
                + " (shard 0's drain returned " + (seen.get("drain(0) returned") - seen.get("drain(1) returned")) / 1_000_000
                + " ms after shard 1's)");
    }

    private LeaseHolder holder(String id) throws Exception {
        LeaseHolder holder = opened.holder(service.nats.url(), id);
        return holder;
    }

    private final class Drains implements ShardListener {
        @Override
        public void shardAssigned(int shard, Tenure tenure) {
        }

        @Override
        public void drain(int shard, Tenure tenure, Duration bound) {
            try {
                if (shard == 0) {
                    Thread.sleep(FLUSH.toMillis());
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            seen.put("drain(" + shard + ") returned", System.nanoTime());
        }

        @Override
        public void shardRevoked(int shard, OwnershipListener.StopReason why) {
        }
    }
}
