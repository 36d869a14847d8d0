package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Incarnation;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The rule: a write of a shard key seen holding it here (so that a grant at that very revision is
 * that write, and owned) is one naming this process, its holder id and its incarnation; a write
 * under the same holder id by another process (replicas that reuse one id, the pod before this one:
 * ADR-034) is another holder's, and a grant at its revision is the store going back. Found in
 * review of c90cfeb: the floors took any write naming the holder id as held here, which the keepers'
 * rule ({@code FenceFloors.heard}) does not.
 */
class AWriteUnderThisHolderIdByAnotherProcessIsAnothersTest extends OwnShardsFixture {

    AWriteUnderThisHolderIdByAnotherProcessIsAnothersTest() {
        super(Duration.ofSeconds(30));
    }

    /**
     * Interleaving: pods A (incarnation "before") and A' (this process, "this-run") share holder id
     * "me". A had shard 3 attached at 77 and owned it there; A' lists the set and sees 3 at 77 named
     * "me"/"before". A's member lease ends, 3 is freed (an event A' misses, or that the store loses),
     * A' becomes a member and attaches 3; nats-server was killed -9 and came back without 77, so the
     * attach is granted at 77 again: A owned at 77, A' must not.
     */
    @Test
    void aGrantAtTheRevisionAnotherProcessUnderThisIdWasSeenHoldingIsRefused() {
        own.written(KEYS.shard(3), new SetFacts.Seen(Optional.of(ME), Optional.of(new Incarnation("before")), 77,
                Optional.of(new Fence(30)), Optional.empty(), SetFacts.Seen.LISTED));

        owned(3, 77);

        assertEquals(Set.of(), own.believed(member), "77 was held by the other process under this id: another holder's");
        assertFalse(record.contains("assigned 3 at 77"), record.toString());
    }

    /** This process's own attach, listed (or heard) before its answer arrives: the grant at it is owned. */
    @Test
    void aGrantAtTheRevisionThisProcessWasSeenHoldingIsOwned() {
        own.claim(3, TENURE);
        own.written(KEYS.shard(3), new SetFacts.Seen(Optional.of(ME), Optional.of(MINE), 77, Optional.of(TENURE),
                Optional.empty(), SetFacts.Seen.LISTED));
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(77), TENURE));

        assertEquals(Set.of(3), own.believed(member));
        assertTrue(record.contains("assigned 3 at 77"), record.toString());
    }
}
