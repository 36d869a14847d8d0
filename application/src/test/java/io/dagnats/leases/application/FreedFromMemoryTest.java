package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.domain.AttachedRecord;
import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The {@code freed} writes dagnats takes from its memory of attached keys (ADR-043) are
 * compare-and-sets on remembered revisions, so they obey the memory's rule (ADR-025, ADR-035,
 * ADR-037): a revision is proposed only of the store it was learnt of, while that store's revisions
 * never repeat. Otherwise a freed write could land on another, live write at a repeated revision.
 */
class FreedFromMemoryTest extends KnownLeasesFixture {

    private static final LeaseKey MEMBER = new LeaseKey("m");

    private final AttachedKeys attached = new AttachedKeys(new LeaseWriter(store, one.known, clock));

    @Test
    void aFreedWriteFromMemoryNeverEndsAnotherWriteAtARepeatedRevision() {
        AttachedRecord remembered = new AttachedRecord(KEY, Claimant.of(ALICE), new Fence(1), new Fence(1),
                clock.instant(), new Attachment(MEMBER, new Fence(1), Optional.empty()));
        KnownLeases.Era learnt = attached.memory();
        store.recreate(1, true, false);
        // Another instance grants bob the key in the new store: the very revision remembered attached.
        KeyState bobs = store.writeUnseen(put(BOB));
        assertEquals(remembered.revision().revision(), bobs.lastSequence());

        int applied = attached.free(List.of(remembered), 5, learnt).toCompletableFuture().join();

        assertEquals(0, applied);
        assertInstanceOf(KeyState.Held.class, store.read(KEY).toCompletableFuture().join(), "bob keeps the key");
    }

    @Test
    void aFreedWriteFromMemoryOfAnEarlierStoreIsNotProposedEvenWhenTheNewOneNeverRepeats() {
        AttachedRecord remembered = new AttachedRecord(KEY, Claimant.of(ALICE), new Fence(1), new Fence(1),
                clock.instant(), new Attachment(MEMBER, new Fence(1), Optional.empty()));
        KnownLeases.Era learnt = attached.memory();
        store.recreate(1, true, true); // (a store judged wrongly; the memory's rule does not rest on it)
        store.writeUnseen(put(BOB));

        assertEquals(0, attached.free(List.of(remembered), 5, learnt).toCompletableFuture().join());
        assertEquals(learnt.equals(attached.memory()), false, "the memory of the old store is not the new one's");
    }

    @Test
    void aFreedWriteFromMemoryOfTheStoreAsItIsLandsOnItsRecord() {
        KnownLeases.Era learnt = attached.memory();
        KeyState alices = store.writeUnseen(put(ALICE));
        AttachedRecord remembered = new AttachedRecord(KEY, Claimant.of(ALICE), new Fence(alices.lastSequence()),
                new Fence(alices.lastSequence()), clock.instant(), new Attachment(MEMBER, new Fence(1), Optional.empty()));

        assertEquals(1, attached.free(List.of(remembered), 5, learnt).toCompletableFuture().join());
    }
}
