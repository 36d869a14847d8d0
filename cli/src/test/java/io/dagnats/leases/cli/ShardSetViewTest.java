package io.dagnats.leases.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** A shard set read back from a listing: its keys, its members, its spread. */
class ShardSetViewTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private long revision = 100;

    private LeaseView held(String key, String holder) {
        return new LeaseView(new LeaseKey(key), new HolderId(holder), new Fence(revision++), NOW, NOW.plusSeconds(3),
                LeaseTtl.ofSeconds(3));
    }

    @Test
    void keysAreReadAsTheHolderLibraryMakesThem() {
        assertEquals(Optional.of(new ShardSetKeys.Shard("orders", 11)), ShardSetKeys.parse(new LeaseKey("orders-shard-11")));
        assertEquals(Optional.of(new ShardSetKeys.Shard("a-shard-b", 0)), ShardSetKeys.parse(new LeaseKey("a-shard-b-shard-0")));
        assertEquals(Optional.of(new ShardSetKeys.Member("orders", new HolderId("w-member-x"))),
                ShardSetKeys.parse(new LeaseKey("orders-member-w-member-x")), "a set's name never holds -member-");
        assertEquals(Optional.empty(), ShardSetKeys.parse(new LeaseKey("orders-shard-07")), "no leading zeros");
        assertEquals(Optional.empty(), ShardSetKeys.parse(new LeaseKey("orders-shard-10000")), "at most 10 000 shards");
        assertEquals(Optional.empty(), ShardSetKeys.parse(new LeaseKey("shard-1")));
        assertEquals(Optional.empty(), ShardSetKeys.parse(new LeaseKey("orders-member-")));
        assertEquals(Optional.empty(), ShardSetKeys.parse(new LeaseKey("notify-leader")));
        assertTrue(ShardSetKeys.refused("rvs-member").isPresent());
        assertTrue(ShardSetKeys.refused("a-member-b").isPresent());
        assertTrue(ShardSetKeys.refused("two words").isPresent());
        assertEquals(Optional.empty(), ShardSetKeys.refused("orders"));
    }

    @Test
    void aSettledSetIsBalancedWithItsCountTakenFromTheHighestShardHeld() {
        List<LeaseView> leases = new ArrayList<>(List.of(held("s-member-a", "a"), held("s-member-b", "b")));
        for (int shard = 0; shard < 5; shard++) {
            leases.add(held("s-shard-" + shard, shard < 3 ? "a" : "b"));
        }

        ShardSetView view = ShardSetView.of("s", Optional.empty(), leases, OptionalInt.empty());

        assertEquals(5, view.shardCount());
        assertTrue(view.countDerived());
        assertEquals(2, view.floor());
        assertEquals(3, view.ceiling());
        assertEquals(List.of(3, 2), view.members().stream().map(ShardSetView.Member::owns).toList());
        assertTrue(view.balanced());
        assertEquals("balanced", ShardsOutput.verdict(view));
    }

    @Test
    void anUnownedShardAMemberOverItsCeilingAndAnOwnerWithoutMemberLeaseAreNotBalanced() {
        List<LeaseView> leases = List.of(held("s-member-a", "a"), held("s-member-b", "b"), held("s-member-c", "a"),
                held("s-shard-0", "a"), held("s-shard-1", "a"), held("s-shard-2", "a"), held("s-shard-4", "gone"),
                held("s-shard-6", "b"));

        ShardSetView view = ShardSetView.of("s", Optional.empty(), leases, OptionalInt.of(6));

        assertEquals(List.of("a", "b"), view.members().stream().map(member -> member.holder().value()).toList(),
                "s-member-c held by a is no member");
        assertEquals(1, view.impostors().size());
        assertEquals(1, view.beyond().size(), "shard 6 is beyond --shards 6");
        assertEquals(List.of(3, 5), view.unowned());
        assertFalse(view.balanced());
        assertEquals("not balanced: 2 shards without an owner (3, 5); 1 shard owned by holders with no member lease;"
                + " b owns 0 (under 3)", ShardsOutput.verdict(view));
    }

    @Test
    void aSetWithNoKeyHeldHasNoShardsAndNoMembers() {
        ShardSetView view = ShardSetView.of("s", Optional.empty(), List.of(), OptionalInt.empty());

        assertEquals(0, view.shardCount());
        assertEquals("not balanced: no members; no shard key held", ShardsOutput.verdict(view));
    }

    @Test
    void theKeepAliveCostIsTheMembersRenewalsNotOnePerShardAndTargetsAddUpToTheSet() {
        List<LeaseView> leases = new ArrayList<>(List.of(held("s-member-a", "a"), held("s-member-b", "b")));
        for (int shard = 0; shard < 12; shard++) {
            leases.add(held("s-shard-" + shard, shard < 9 ? "a" : "b"));
        }

        ShardSetView view = ShardSetView.of("s", Optional.empty(), leases, OptionalInt.empty());

        assertEquals(2.0, view.keepAlivePerSecond(), 1e-9, "2 members at TTL 3 s: 3*2/3");
        assertEquals(12.0, view.perShardLeasesPerSecond(), 1e-9, "12 shards at TTL 3 s: 3*12/3");
        assertEquals(List.of(6, 6), view.members().stream().map(ShardSetView.Member::target).toList());
        assertEquals(3, view.toMove());
        assertEquals(Optional.of(new ShardSetKeys.Capacity("s", new HolderId("a"))),
                ShardSetKeys.parse(new LeaseKey("s-capacity-a")));
    }

    @Test
    void aCapacityKeysValueIsItsMembersCapacityAndTargetsFollowIt() {
        List<LeaseView> leases = new ArrayList<>(List.of(held("s-member-a", "a"), held("s-member-b", "b"),
                attached("s-capacity-b", "b", "2")));
        for (int shard = 0; shard < 12; shard++) {
            leases.add(held("s-shard-" + shard, shard < 4 ? "a" : "b"));
        }

        ShardSetView view = ShardSetView.of("s", Optional.empty(), leases, OptionalInt.empty());

        assertEquals(List.of(1, 2), view.members().stream().map(ShardSetView.Member::capacity).toList());
        assertEquals(List.of(4, 8), view.members().stream().map(ShardSetView.Member::target).toList());
        assertTrue(view.balanced());
    }

    private LeaseView attached(String key, String holder, String value) {
        return new LeaseView(new LeaseKey(key), new HolderId(holder), Optional.empty(), new Fence(revision++),
                Optional.empty(), NOW, NOW.plusSeconds(3), LeaseTtl.ofSeconds(3), Optional.empty(),
                Optional.of(new io.dagnats.leases.domain.Attachment(new LeaseKey("s-member-" + holder), new Fence(1),
                        Optional.of(value))));
    }
}
