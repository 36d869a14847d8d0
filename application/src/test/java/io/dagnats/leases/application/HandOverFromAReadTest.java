package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Decision;
import io.dagnats.leases.domain.Handover;
import io.dagnats.leases.domain.HandoverCheck;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseRules;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Lost;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A handover starts with a leader read, never from the memory of known leases alone. When the store
 * went back (ADR-037: kill -9 of nats-server, not yet proven by any presented fence) or is a copy of
 * its own configuration (ADR-035), a remembered revision can name another holder's write, and a
 * compare-and-set (numbers only) would accept it: the successor would be handed a key another holds.
 * The read shows the repeated revision (KnownLeases.Sight.REUSED): lost, nothing written, nothing granted
 * (the successor, asked while the key is read, ADR-046, learns nothing from being asked).
 */
class HandOverFromAReadTest extends LeaseUseCasesFixture {

    private static final Claimant SUCCESSOR = Claimant.of(BOB, new Incarnation("b1"));
    private static final Claimant CAROL = Claimant.of(new io.dagnats.leases.domain.HolderId("carol"));

    private final AtomicInteger asked = new AtomicInteger();
    private final java.util.List<Lease> granted = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final HandOverLease handover = new HandOverLease(new LeaseWriter(store, known, clock),
            (key, successor, timeout) -> {
                asked.incrementAndGet();
                return CompletableFuture.completedFuture(new SuccessorCheck.Reply.Waiting(new HandoverCheck("c1"), granted::add));
            });

    @Test
    void aHandoverFromMemoryNeverLandsOnAnotherHoldersLeaseAtARepeatedRevision() {
        Lease alices = granted(acquire(ALICE));
        // The store comes back without alice's write, its next sequence alice's revision; this
        // instance has not looked yet (same identity). Carol acquires through another instance.
        store.recreate(alices.revision().revision(), false, true);
        KeyState carols = store.writeUnseen(put(CAROL));
        assertEquals(alices.revision().revision(), carols.lastSequence(), "carol's lease is at alice's revision");

        Handover answer = join(handover.execute(new HandOverLease.Command(KEY, alices.claimant(), alices.revision(),
                SUCCESSOR, Optional.empty())));

        assertEquals(carols, join(store.read(KEY)), "carol still holds the key: nothing handed over her head");
        assertInstanceOf(Lost.class, answer);
        assertEquals(1, store.applied().size(), "alice's acquire only");
        assertEquals(java.util.List.of(), granted, "nothing granted on a revision that names another holder's write");
    }

    private LeaseWrite.Put put(Claimant holder) {
        return (LeaseWrite.Put) ((Decision.Apply<?>) LeaseRules.acquire(
                new KeyState.Free(KEY, 0), holder, TTL, clock.instant())).write();
    }
}
