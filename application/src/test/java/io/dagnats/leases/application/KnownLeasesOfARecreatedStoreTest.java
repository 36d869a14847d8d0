package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Lost;
import io.dagnats.leases.domain.Release;
import io.dagnats.leases.domain.Renewal;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** A recreated store whose revisions may repeat: nothing remembered of it lets an old revision act over another holder. */
class KnownLeasesOfARecreatedStoreTest extends KnownLeasesFixture {

    @Test
    void anOldRevisionCannotRenewOverAnotherHolderInARecreatedStoreWhoseSequencesRepeat() {
        Lease alices = one.acquire(ALICE).lease();
        store.recreate(1, true, false);
        // Another instance grants bob the key in the new store: the very revision alice remembers.
        KeyState bobs = store.writeUnseen(put(BOB));
        assertEquals(alices.revision().revision(), bobs.lastSequence());

        Renewal renewal = one.renew(ALICE, alices);

        assertEquals(Lost.Reason.HELD_BY_OTHER, assertInstanceOf(Lost.class, renewal).reason());
        assertEquals(List.of(), store.applied().subList(1, store.applied().size()));
    }

    @Test
    void anOldRevisionCannotReleaseAnotherHoldersLeaseInARecreatedStoreWhoseSequencesRepeat() {
        Lease alices = one.acquire(ALICE).lease();
        store.recreate(1, true, false);
        store.writeUnseen(put(BOB));

        Release release = one.release.execute(new ReleaseLease.Command(KEY, ALICE, alices.revision()))
                .toCompletableFuture().join();

        assertInstanceOf(Lost.class, release);
        assertEquals(1, store.applied().size());
    }

    @Test
    void aStoreWhoseSequencesMayRepeatIsNeverRemembered() {
        store.recreate(1, true, false);

        Lease lease = one.acquire(ALICE).lease();
        one.renew(ALICE, lease);

        assertEquals(0, one.known.size());
        assertEquals(2, store.reads());
    }

    @Test
    void aNewIdentityForgetsEverythingRememberedOfTheOldStore() {
        Lease lease = one.acquire(ALICE).lease();
        assertEquals(1, one.known.size());
        store.recreate(1_000, true, true);

        Renewal renewal = one.renew(ALICE, lease);

        assertEquals(Lost.Reason.NOT_HELD, assertInstanceOf(Lost.class, renewal).reason());
        assertEquals(1, store.reads(), "the renew read the new store instead of proposing from memory");
    }

    /**
     * Issue 21's copy: the store recreated from its own configuration starts at the old first
     * sequence, so bob's lease, written through another instance, has alice's revision. The owner
     * query that shows it ends the memory, and alice's renew reads instead of proposing on the reused
     * revision: lost, bob keeps the key (before, the renew was accepted over bob's lease).
     */
    @Test
    void anOwnerQueryShowingAnotherHolderAtARememberedRevisionStopsTheRenewFromMemory() {
        Lease alices = one.acquire(ALICE).lease();
        store.recreate(alices.revision().revision(), false, true);
        KeyState bobs = store.writeUnseen(put(BOB));
        assertEquals(alices.revision().revision(), bobs.lastSequence(), "the copy hands out alice's revision again");

        KeyState shown = new ReadLease(store, one.known).execute(KEY).toCompletableFuture().join();
        Renewal renewal = one.renew(ALICE, alices);

        assertEquals(bobs, shown);
        assertEquals(Lost.Reason.HELD_BY_OTHER, assertInstanceOf(Lost.class, renewal).reason());
        assertEquals(1, store.repeats().size(), store.repeats().toString());
        assertEquals(bobs, store.read(KEY).toCompletableFuture().join(), "bob keeps the key");
    }

    @Test
    void aKeysSequenceGoingBackBeforeTheStoreNoticedIsAContradictionThatForgetsEverything() {
        two.acquire.execute(new AcquireLease.Command(new LeaseKey("other"), BOB, TTL)).toCompletableFuture().join();
        Lease alices = one.acquire(ALICE).lease();
        // Recreated by someone else, not noticed yet: the identity still looks the same.
        store.recreate(1, false, true);
        KeyState bobs = store.writeUnseen(put(BOB));

        CompletionException failure = assertThrows(CompletionException.class, () -> one.renew(ALICE, alices));

        assertEquals(ErrorKind.UNAVAILABLE, assertInstanceOf(LeaseFailure.class, failure.getCause()).kind());
        assertEquals(1, store.contradictions().size(), store.contradictions().toString());
        assertEquals(0, one.known.size());
        assertEquals(bobs, store.read(KEY).toCompletableFuture().join());
    }
}
