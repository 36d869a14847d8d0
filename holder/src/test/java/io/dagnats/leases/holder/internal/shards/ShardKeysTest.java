package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The keys of a shard set, and which of them show a member or a shard. */
class ShardKeysTest {

    private static final HolderId EU = new HolderId("eu");
    private final ShardKeys rvs = new ShardKeys("rvs", 4);

    @Test
    void aMemberKeyHeldByTheHolderItNamesIsThatMember() {
        assertEquals(Optional.of(EU), rvs.memberOf(new LeaseKey("rvs-member-eu"), EU));
    }

    @Test
    void aMemberKeyHeldByAnotherHolderIsNoMember() {
        assertEquals(Optional.empty(), rvs.memberOf(new LeaseKey("rvs-member-eu"), new HolderId("us")));
    }

    @Test
    void anotherSetsKeysUnderTheMemberPrefixAreNoMembers() {
        HolderId replica = new HolderId("replica-1");
        // The keys a set named rvs-member-eu made, before such names were refused.
        assertEquals(Optional.empty(), rvs.memberOf(new LeaseKey("rvs-member-eu-shard-0"), replica));
        assertEquals(Optional.empty(), rvs.memberOf(new LeaseKey("rvs-member-eu-member-replica-1"), replica));
    }

    @Test
    void onlyTheExactShardKeysAreShards() {
        assertEquals(Optional.of(3), rvs.shardOf(new LeaseKey("rvs-shard-3")));
        assertEquals(Optional.empty(), rvs.shardOf(new LeaseKey("rvs-shard-4")));
        assertEquals(Optional.empty(), rvs.shardOf(new LeaseKey("rvs-shard-03")));
        assertEquals(Optional.empty(), rvs.shardOf(new LeaseKey("rvs-shard-1-shard-0")));
        assertEquals(Optional.empty(), rvs.shardOf(new LeaseKey("rvs-shard-member-x")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"rvs-member-eu", "rvs-member-", "a-member-b-member-c"})
    void aSetNameContainingTheMemberInfixIsRefused(String name) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new ShardKeys(name, 2));
        assertTrue(refused.getMessage().contains("'-member-'"), refused.getMessage());
    }

    @Test
    void aSetNameEndingWithMemberIsRefusedForItsKeysStartWithAnotherSetsMemberPrefix() {
        // rvs-member's keys are rvs-member-shard-0 and rvs-member-member-<id>: both under rvs-member-.
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new ShardKeys("rvs-member", 2));
        assertTrue(refused.getMessage().contains("'rvs'"), refused.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rvs-shard", "rvs-shard-1", "members", "rvs-members", "member", "team-membership"})
    void aSetNameWhoseKeysNoOtherSetCountsIsAccepted(String name) {
        assertEquals(name, new ShardKeys(name, 2).set());
    }
}
