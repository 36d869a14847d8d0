package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a read means against what was remembered: consistent, a sequence that went back, or a revision reused. */
class KnownLeasesSightTest extends KnownLeasesFixture {

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
}
