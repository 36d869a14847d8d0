package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The rule: a shard whose belief ended by a write of its key not granting it here (LOST), or whose
 * drain was abandoned (parked for a TTL), is never owned again at the fence it was owned at; only
 * belief ended with no write seen or sent (OwnShardsTest) may own the same record again. Found in
 * review ("no write by this process" had been taken as "no write by anyone").
 */
class LostOrAbandonedFenceIsNeverOwnedAgainTest extends OwnShardsFixture {

    LostOrAbandonedFenceIsNeverOwnedAgainTest() {
        super(Duration.ofSeconds(30));
    }

    /**
     * Interleaving: member A owns shard 3 at 77. An operator revokes the shard key (80) and member B
     * attaches it (81): A hears it and says LOST, B owns at 81. nats-server is killed -9 and comes
     * back without the revoke and B's attach (ADR-037); nobody has presented a fence yet, so no skip.
     * A's next listing shows 3 attached here at 77 (its member tenure lives), A confirms, and the
     * idempotent attach is granted at 77. 8a925d1 owns it again at 77 (not below the floor, not
     * spent): A believes at 77 while B still believes at 81 until its own next listing, and A reuses
     * a fence it had lost to a later one. Before 8a925d1 (at-or-below the floor) this was refused.
     */
    @Test
    void aShardLostToAnotherWriteIsNeverOwnedAgainAtItsOldFenceWhenTheStoreGoesBack() {
        owned(3, 77);
        seen = seen.changed(KEYS.shard(3), write(Optional.of(OTHER), 81, 0), false, loop.nanoTime());
        own.written(KEYS.shard(3), write(Optional.of(OTHER), 81, 0)); // as the sight tells each write it hears
        own.forgetGone(seen);
        assertEquals("revoked 3 LOST", record.get(record.size() - 1));

        loop.advance(TTL.dividedBy(3)); // the next listing, after the store went back
        seen = seen.listed(Map.of(KEYS.shard(3), write(Optional.of(ME), 77, SetFacts.Seen.LISTED)), seen.step(),
                loop.nanoTime(), loop.nanoTime());
        own.confirm(3, TENURE, 77);
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(77), TENURE));

        assertEquals(Set.of(), own.believed(member), "77 was lost to 81: owning at 77 again is the store going back");
        assertFalse(record.subList(2, record.size()).contains("assigned 3 at 77"), record.toString());
    }

    /**
     * Interleaving: A owns shard 3 at 77 and is asked to move it; the drain overruns its bound, so
     * the shard is parked (ABANDONED): "it may still act under its tenure, so the shard stays
     * attached here, owned by nobody" for a TTL. Meanwhile dagnats is slow, A's member deadline
     * passes (memberEnded forgets every state, the Parked one too), then the member's renew
     * succeeds in the same tenure. The view shows 3 here at 77, A confirms, the attach is granted
     * at 77 and 8a925d1 owns it again at once, while the abandoned drain may still act at 77.
     */
    @Test
    void aParkedShardIsNotOwnedAgainAtItsFenceBeforeItsWaitIsOver() {
        owned(3, 77);
        own.handOver(3, TARGET);
        loop.advance(TTL); // the drain's bound passes: parked, owned by nobody for a TTL
        assertEquals("revoked 3 ABANDONED", record.get(record.size() - 1));
        own.memberEnded(StopReason.DEADLINE_PASSED); // dagnats slow; the member lease lives on, unchanged

        own.confirm(3, TENURE, 77); // the member renewed in the same tenure; the view shows 3 here
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(77), TENURE));

        assertEquals(Set.of(), own.believed(member), "the abandoned drain may still act at 77 for a TTL");
        assertFalse(record.subList(2, record.size()).contains("assigned 3 at 77"), record.toString());
    }

    /**
     * Interleaving: A owns shard 3 at 77. An operator revokes the shard key (80),
     * B attaches it (81) and, placing, moves it to A (82). The three events reach A's connection
     * together and are folded as one batch (SetSight.fold): SetFacts.changed keeps only the last
     * write of a key, 82 held by A; the sight tells the floors each of the three, and 82 alone
     * would close 77 (the highest write seen, whoever wrote it). A confirms the move; nats-server
     * is killed -9 and comes back without 80..82, so the idempotent attach is granted at 77: refused.
     */
    @Test
    void aShardLostToWritesFoldedInOneBatchIsNeverOwnedAgainAtItsOldFence() {
        owned(3, 77);
        List<SetFacts.Change> batch = List.of(new SetFacts.Change(KEYS.shard(3), write(Optional.empty(), 80, 0), false),
                new SetFacts.Change(KEYS.shard(3), write(Optional.of(OTHER), 81, 0), false),
                new SetFacts.Change(KEYS.shard(3), write(Optional.of(ME), 82, 0), false));
        seen = seen.changed(batch, loop.nanoTime());
        batch.forEach(change -> own.written(change.key(), change.seen())); // as the sight tells each write of a fold
        own.forgetGone(seen);
        assertEquals("revoked 3 LOST", record.get(record.size() - 1));

        own.confirm(3, TENURE, 82); // the move to A, shown here
        answer("attach 3", new ShardCalls.Attached.Granted(new Fence(77), TENURE)); // the store went back
        loop.advance(TTL.dividedBy(3)); // the next listing, of the store as it came back
        seen = seen.listed(Map.of(KEYS.shard(3), write(Optional.of(ME), 77, SetFacts.Seen.LISTED)), seen.step(),
                loop.nanoTime(), loop.nanoTime());
        own.forgetGone(seen);

        assertEquals(Set.of(), own.believed(member), "77 was lost to 80 and 81: owning at 77 again is the store going back");
        assertFalse(record.subList(2, record.size()).contains("assigned 3 at 77"), record.toString());
    }
}
