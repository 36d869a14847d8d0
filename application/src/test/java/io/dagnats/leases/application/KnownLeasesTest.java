package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.Decision;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseRules;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Lost;
import io.dagnats.leases.domain.Release;
import io.dagnats.leases.domain.Renewal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** What an instance remembers may propose a write, never an answer. */
class KnownLeasesTest {

    private static final LeaseKey KEY = new LeaseKey("k");
    private static final HolderId ALICE = new HolderId("alice");
    private static final HolderId BOB = new HolderId("bob");
    private static final LeaseTtl TTL = LeaseTtl.ofSeconds(15);

    private final TestingClock clock = new TestingClock(Instant.parse("2026-10-18T12:00:00Z"));
    private final InMemoryLeaseStore store = new InMemoryLeaseStore();

    /** One dagnats instance: its own memory over the shared store. */
    private final class Instance {
        final KnownLeases known = new KnownLeases(100);
        final AcquireLease acquire = new AcquireLease(store, known, clock);
        final RenewLease renew = new RenewLease(store, known, clock);
        final ReleaseLease release = new ReleaseLease(store, known, clock);

        Acquisition acquire(HolderId holder) {
            return acquire.execute(new AcquireLease.Command(KEY, holder, TTL)).toCompletableFuture().join();
        }

        Renewal renew(HolderId holder, Lease lease) {
            return renew.execute(new RenewLease.Command(KEY, holder, lease.revision(), Optional.empty()))
                    .toCompletableFuture().join();
        }
    }

    private final Instance one = new Instance();
    private final Instance two = new Instance();

    @Test
    void aFreshKeyIsGrantedInOneWriteWithoutARead() {
        assertInstanceOf(Acquisition.Granted.class, one.acquire(ALICE));

        assertEquals(0, store.reads());
        assertEquals(1, store.applied().size());
    }

    @Test
    void renewingTheCallersOwnLastWriteIsOneWriteWithoutARead() {
        Lease lease = one.acquire(ALICE).lease();
        Lease renewed = assertInstanceOf(Renewal.Renewed.class, one.renew(ALICE, lease)).lease();
        assertInstanceOf(Renewal.Renewed.class, one.renew(ALICE, renewed));

        assertEquals(0, store.reads());
        assertEquals(3, store.applied().size());
    }

    @Test
    void aRememberedStateThatMovedOnFallsBackToAReadAndATruthfulAnswer() {
        Lease lease = one.acquire(ALICE).lease();
        // The other instance renews: the first instance's memory of revision N is now not the last write.
        two.renew(ALICE, lease);

        Renewal stale = one.renew(ALICE, lease);

        assertEquals(Lost.Reason.STALE_FENCE, assertInstanceOf(Lost.class, stale).reason());
        assertEquals(2, store.applied().size());
    }

    @Test
    void aHeldKeyNotRememberedIsAnsweredFromARead() {
        Lease alices = one.acquire(ALICE).lease();

        Acquisition bobs = two.acquire(BOB);

        assertEquals(alices, assertInstanceOf(Acquisition.HeldByOther.class, bobs).lease());
        assertEquals(1, store.reads());
        assertEquals(1, store.applied().size());
    }

    @Test
    void anAnswerIsNeverTakenFromMemory() {
        Lease lease = one.acquire(ALICE).lease();
        store.expire(KEY);

        // Memory says alice holds it at this revision; only the store can say it expired.
        Renewal renewal = one.renew(ALICE, lease);

        assertEquals(Lost.Reason.NOT_HELD, assertInstanceOf(Lost.class, renewal).reason());
    }

    @Test
    void aReleaseOfTheCallersOwnLastWriteIsOneWrite() {
        Lease lease = one.acquire(ALICE).lease();

        Release released = one.release.execute(new ReleaseLease.Command(KEY, ALICE, lease.revision()))
                .toCompletableFuture().join();

        assertInstanceOf(Release.Released.class, released);
        assertEquals(0, store.reads());
    }

    @Test
    void theMemoryIsBounded() {
        KnownLeases small = new KnownLeases(2);
        KnownLeases.Ticket ticket = small.begin(FRESH);
        for (int i = 0; i < 5; i++) {
            small.saw(ticket, new KeyState.Free(new LeaseKey("k" + i), i + 1));
        }
        assertEquals(2, small.size());
        assertEquals(Optional.empty(), small.lastSeen(ticket, new LeaseKey("k0")));
    }

    private static final LeaseStore.Identity FRESH = new LeaseStore.Identity("bucket-1", true);

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

    @Test
    void aLowerSequenceFromACallThatRacedANewerOneIsNoContradiction() {
        KnownLeases known = new KnownLeases(10);
        KnownLeases.Ticket slow = known.begin(FRESH);
        KnownLeases.Ticket fast = known.begin(FRESH);
        assertEquals(KnownLeases.Sight.CONSISTENT, known.saw(fast, new KeyState.Free(KEY, 10)));

        assertEquals(KnownLeases.Sight.CONSISTENT, known.saw(slow, new KeyState.Free(KEY, 5)));

        assertEquals(10, known.lastSeen(known.begin(FRESH), KEY).orElseThrow().lastSequence());
    }

    @Test
    void aKeyWhoseMarkerExpiredIsFreeAtZeroAndNoContradiction() {
        KnownLeases known = new KnownLeases(10);
        known.saw(known.begin(FRESH), new KeyState.Free(KEY, 10));

        KnownLeases.Ticket later = known.begin(FRESH);
        assertEquals(KnownLeases.Sight.CONSISTENT, known.saw(later, new KeyState.Free(KEY, 0)));

        assertEquals(0, known.lastSeen(later, KEY).orElseThrow().lastSequence());
    }

    @Test
    void aLowerSequenceReadAfterAHigherOneWasRecordedIsAContradiction() {
        KnownLeases known = new KnownLeases(10);
        known.saw(known.begin(FRESH), new KeyState.Free(KEY, 10));
        known.saw(known.begin(FRESH), new KeyState.Free(new LeaseKey("other"), 11));

        assertEquals(KnownLeases.Sight.WENT_BACK, known.saw(known.begin(FRESH), new KeyState.Free(KEY, 3)));

        assertEquals(0, known.size());
    }

    /**
     * A bucket recreated from a copy of its own configuration starts at the old first sequence: a
     * read names another holder at the very revision remembered. The memory ends, and nothing is
     * proposed from memory on that store identity again (issue 21; before, h1's renew was proposed on
     * the reused revision and accepted over h2's lease).
     */
    @Test
    void anotherHolderAtARememberedRevisionEndsTheMemoryForThatStore() {
        KnownLeases known = new KnownLeases(10);
        Lease alices = put(ALICE).leaseAt(new Fence(7));
        known.saw(known.begin(FRESH), new KeyState.Held(alices));
        known.saw(known.begin(FRESH), new KeyState.Free(new LeaseKey("other"), 8));
        Lease bobs = put(BOB).leaseAt(new Fence(7));

        KnownLeases.Ticket reading = known.begin(FRESH);
        assertEquals(KnownLeases.Sight.REUSED, known.checked(reading, new KeyState.Held(bobs)));

        assertEquals(0, known.size());
        KnownLeases.Ticket later = known.begin(FRESH);
        assertFalse(known.enabled(later));
        known.saw(later, new KeyState.Held(bobs));
        assertTrue(known.lastSeen(later, KEY).isEmpty(), "nothing is remembered of a store that repeats revisions");
        assertTrue(known.enabled(known.begin(new LeaseStore.Identity("another bucket", true))));
    }

    @Test
    void anotherTenureOrAcquireTimeAtARememberedRevisionIsReuseToo() {
        Lease alices = put(ALICE).leaseAt(new Fence(7));
        Lease later = new Lease(KEY, ALICE, new Fence(7), new Fence(7), alices.acquiredAt().plusSeconds(1),
                alices.writtenAt(), TTL);
        Lease otherTenure = new Lease(KEY, ALICE, new Fence(7), new Fence(3), alices.acquiredAt(),
                alices.writtenAt(), TTL);
        Lease otherIncarnation = new Lease(KEY, ALICE, Optional.of(new Incarnation("i2")), new Fence(7), new Fence(7),
                alices.acquiredAt(), alices.writtenAt(), TTL);
        for (Lease other : List.of(later, otherTenure, otherIncarnation)) {
            KnownLeases known = new KnownLeases(10);
            known.saw(known.begin(FRESH), new KeyState.Held(alices));

            assertEquals(KnownLeases.Sight.REUSED, known.saw(known.begin(FRESH), new KeyState.Held(other)), other.toString());
        }
    }

    @Test
    void theSameWriteReadAgainOrALeaseReadFreeAtItsRevisionIsNoReuse() {
        KnownLeases known = new KnownLeases(10);
        Lease alices = put(ALICE).leaseAt(new Fence(7));
        known.saw(known.begin(FRESH), new KeyState.Held(alices));

        assertEquals(KnownLeases.Sight.CONSISTENT, known.saw(known.begin(FRESH), new KeyState.Held(alices)));
        // What a lease the store forgot to expire reads as, when its removal did not apply.
        assertEquals(KnownLeases.Sight.CONSISTENT, known.saw(known.begin(FRESH), new KeyState.Free(KEY, 7)));
        assertTrue(known.enabled(known.begin(FRESH)));
    }

    @Test
    void aLeaseWhereAReleaseWasRememberedIsReuse() {
        KnownLeases known = new KnownLeases(10);
        known.saw(known.begin(FRESH), new KeyState.Free(KEY, 7));

        assertEquals(KnownLeases.Sight.REUSED,
                known.saw(known.begin(FRESH), new KeyState.Held(put(BOB).leaseAt(new Fence(7)))));
    }

    private LeaseWrite.Put put(HolderId holder) {
        return (LeaseWrite.Put) ((Decision.Apply<?>) LeaseRules.acquire(
                new KeyState.Free(KEY, 0), Claimant.of(holder), TTL, clock.instant())).write();
    }
}
