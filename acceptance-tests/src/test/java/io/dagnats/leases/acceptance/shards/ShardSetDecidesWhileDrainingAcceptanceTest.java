package io.dagnats.leases.acceptance.shards;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.Opened;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardBudget;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import io.dagnats.leases.holder.ShardSetOptions;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A drain does not stop its set from deciding: while one shard drains, the
 * replica still hears the set change and takes a freed shard at once.
 */
class ShardSetDecidesWhileDrainingAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final Duration DRAIN_BOUND = Duration.ofSeconds(15);
    /** Replica a's drain of shard 3: long enough that b joins, takes a shard and leaves inside it. */
    private static final Duration SLOW_FLUSH = Duration.ofSeconds(8);
    private static final String SET = "undrained";
    /**
     * ADR-044: the default budget moves one of 4 shards a round, and the next round waits for
     * shard 3's slow drain; with 2 a round, a gives up 2 and 3 together, as this test needs.
     */
    private static final ShardSetOptions BOTH_IN_ONE_ROUND = ShardSetOptions.defaults().budget(new ShardBudget(2, 1.0));

    private final Opened opened = new Opened();
    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    @AfterEach
    void stop() throws Exception {
        opened.close();
    }

    /**
     * a owns shards 0 to 3; b joins, so a gives up 2 (its drain returns at once) and 3 (it
     * flushes for 8 s); b takes 2, then leaves. a's share is 4 again: it takes shard 2 back
     * while its drain of shard 3 still runs, not only once that drain returns.
     */
    @Test
    void aReplicaTakesAFreedShardWhileAnotherOfItsShardsIsStillDraining() throws Exception {
        LeaseHolder a = opened.holder(service.nats.url(), "undrained-a");
        ShardSet setA = a.shards(SET, 4, TTL, DRAIN_BOUND, BOTH_IN_ONE_ROUND, new Listener("a"));
        Polling.until(Duration.ofSeconds(20), "a to own every shard", setA::owned,
                owned -> owned.equals(Set.of(0, 1, 2, 3)));

        LeaseHolder b = opened.holder(service.nats.url(), "undrained-b");
        ShardSet setB = b.shards(SET, 4, TTL, DRAIN_BOUND, BOTH_IN_ONE_ROUND, new Listener("b"));
        Polling.until(Duration.ofSeconds(20), "b to own shard 2 while a drains shard 3", setB::owned,
                owned -> owned.contains(2));
        assertTrue(seen.contains("a drain 3 began") && !seen.contains("a drain 3 returned"), "seen: " + seen);
        setB.close();

        Polling.until(Duration.ofSeconds(20), "a to own shard 2 again, or its drain of shard 3 to return",
                () -> Set.copyOf(seen), events -> events.contains("a owns 2 again") || events.contains("a drain 3 returned"));
        assertTrue(seen.contains("a owns 2 again") && !seen.contains("a drain 3 returned (before owning 2 again)"),
                "a took shard 2 back only after its drain of shard 3 returned: " + seen);
    }

    private final class Listener implements ShardListener {
        private final String name;
        private final Set<Integer> assigned = ConcurrentHashMap.newKeySet();

        Listener(String name) {
            this.name = name;
        }

        @Override
        public void shardAssigned(int shard, Tenure tenure) {
            if (!assigned.add(shard) && name.equals("a") && shard == 2) {
                seen.add("a owns 2 again");
            }
        }

        @Override
        public void drain(int shard, Tenure tenure, Duration bound) {
            if (name.equals("a") && shard == 3) {
                seen.add("a drain 3 began");
                try {
                    Thread.sleep(SLOW_FLUSH.toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
                seen.add(seen.contains("a owns 2 again") ? "a drain 3 returned" : "a drain 3 returned (before owning 2 again)");
                seen.add("a drain 3 returned");
            }
        }

        @Override
        public void shardRevoked(int shard, OwnershipListener.StopReason why) {
        }
    }
}
