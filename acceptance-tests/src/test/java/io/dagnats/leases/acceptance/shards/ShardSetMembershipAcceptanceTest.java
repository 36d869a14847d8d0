package io.dagnats.leases.acceptance.shards;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.Opened;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Membership of a shard set is a fact of the wire: a member is a lease
 * {@code <set>-member-<holder id>} held by exactly that holder. Keys of another
 * set (or any lease) that merely start with the set's member prefix are no
 * members, so they neither lower this replica's quota nor leave shards unowned.
 */
class ShardSetMembershipAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    /** A lone replica owns every shard once it has listed once: about a third of the TTL, plus grants. */
    private static final Duration FEW_SECONDS = Duration.ofSeconds(6);

    private final Opened opened = new Opened();

    @AfterEach
    void stop() throws Exception {
        opened.close();
    }

    /**
     * Issue 20, finding 3: one replica in sets {@code rvs} (4 shards) and {@code rvc} (4), and the
     * keys of a set {@code rvs-member-eu} (2 shards) held too, as a replica that predates the
     * refusal of such names (or any plain {@code keep}) holds them: {@code rvs-member-eu-shard-0},
     * {@code rvs-member-eu-shard-1} and {@code rvs-member-eu-member-<id>}. All three start with
     * {@code rvs}'s member prefix; counted as members, they made N = 4 and {@code rvs} owned 1 of 4.
     */
    @Test
    void keysOfAnotherSetUnderTheMemberPrefixAreNoMembersAndEverySetOwnsAllItsShards() throws Exception {
        LeaseHolder replica = opened.holder(service.nats.url(), "ghosts-a");
        ShardSet rvs = replica.shards("rvs", 4, TTL, Quiet.LISTENER);
        for (String key : List.of("rvs-member-eu-member-" + replica.id().value(), "rvs-member-eu-shard-0",
                "rvs-member-eu-shard-1")) {
            replica.keep(key, TTL, OwnershipListener.NONE);
        }
        ShardSet rvc = replica.shards("rvc", 4, TTL, Quiet.LISTENER);

        Map<String, Set<Integer>> owned = Polling.until(FEW_SECONDS, "rvs and rvc to own all of their 4 shards",
                () -> owned(rvs, rvc), seen -> seen.values().stream().allMatch(shards -> shards.size() == 4));
        assertTrue(owned.get("rvs").equals(Set.of(0, 1, 2, 3)), "rvs owns " + owned);
    }

    @Test
    void aSetNameContainingTheMemberInfixIsRefused() throws Exception {
        LeaseHolder replica = opened.holder(service.nats.url(), "ghosts-b");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> replica.shards("rvs-member-eu", 2, TTL, Quiet.LISTENER));
        assertTrue(refused.getMessage().contains("-member-"), refused.getMessage());
    }

    private static Map<String, Set<Integer>> owned(ShardSet... sets) {
        Map<String, Set<Integer>> owned = new TreeMap<>();
        for (ShardSet set : sets) {
            owned.put(set.name(), set.owned());
        }
        return owned;
    }

    private enum Quiet implements ShardListener {
        LISTENER;

        @Override
        public void shardAssigned(int shard, Tenure tenure) {
        }

        @Override
        public void shardRevoked(int shard, OwnershipListener.StopReason why) {
        }
    }
}
