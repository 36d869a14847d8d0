package io.dagnats.leases.holder.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseChange;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FenceFloorsTest {

    private static final LeaseKey KEY = new LeaseKey("k");
    private static final Claimant SELF = Claimant.of(new HolderId("me"), new Incarnation("run-1"));
    private final FenceFloors floors = new FenceFloors();

    @Test
    void aKeyNeverOwnedNorSeenHasNoFloor() {
        assertEquals(Optional.empty(), floors.grantFloor(KEY));
    }

    @Test
    void aGrantMustReachTheConfirmedFenceAWriteSeenHereOrOneAboveAnothersWrite() {
        floors.raise(KEY, new Fence(10));
        assertEquals(Optional.of(new Fence(10)), floors.grantFloor(KEY), "at the confirmed fence is that very write");

        floors.written(KEY, new Fence(12), true);
        assertEquals(Optional.of(new Fence(12)), floors.grantFloor(KEY), "at a write held here is that very write");

        floors.written(KEY, new Fence(12), false);
        assertEquals(Optional.of(new Fence(13)), floors.grantFloor(KEY), "12 was someone else's write too: above it");

        floors.written(KEY, new Fence(11), false);
        floors.raise(KEY, new Fence(11));
        assertEquals(Optional.of(new Fence(13)), floors.grantFloor(KEY), "floors never go down");
        assertEquals(Optional.of(new Fence(11)), floors.floor(KEY), "the confirmed floor is its own: followers read it");
    }

    @Test
    void aKeeperHearsAnothersWritesAndEndingsButNotItsOwnWrites() {
        floors.heard(KEY, change(LeaseChange.Kind.RENEWED, 20, "me", Optional.of("run-1")), SELF);
        assertEquals(Optional.empty(), floors.grantFloor(KEY), "its own renew: left to the answer");
        floors.heard(KEY, change(LeaseChange.Kind.RENEWED, 21, "me", Optional.empty()), SELF);
        assertEquals(Optional.empty(), floors.grantFloor(KEY), "naming no incarnation: taken as its own");

        floors.heard(KEY, change(LeaseChange.Kind.RELEASED, 22, "me", Optional.of("run-1")), SELF);
        assertEquals(Optional.of(new Fence(23)), floors.grantFloor(KEY), "its own release ends the lease: above it");
        floors.heard(KEY, change(LeaseChange.Kind.ACQUIRED, 30, "me", Optional.of("run-2")), SELF);
        assertEquals(Optional.of(new Fence(31)), floors.grantFloor(KEY), "a twin's acquire is another's write");
        floors.heard(KEY, change(LeaseChange.Kind.ACQUIRED, 40, "other", Optional.empty()), SELF);
        assertEquals(Optional.of(new Fence(41)), floors.grantFloor(KEY));
    }

    private static LeaseChange change(LeaseChange.Kind kind, long sequence, String holder, Optional<String> incarnation) {
        return new LeaseChange(Instant.EPOCH, KEY, kind, sequence, Optional.of(new HolderId(holder)),
                incarnation.map(Incarnation::new), Optional.empty(), Optional.empty(), Optional.empty());
    }
}
