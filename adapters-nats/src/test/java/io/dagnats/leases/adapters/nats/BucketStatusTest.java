package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.RevokeReason;
import org.junit.jupiter.api.Test;

/** The grace rule: a replacement bucket grants no free key until its grace ends, then as usual. */
class BucketStatusTest {

    private static final Instant CREATED = Instant.parse("2026-11-30T13:00:00Z");
    private static final BucketIdentity IDENTITY = BucketIdentity.of(CREATED, 5, Map.of());

    private static Clock at(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    @Test
    void noFreeKeyIsGrantedBeforeTheGraceEndsAndEveryKeyIsAfter() {
        Instant grantsFrom = ReplacementGrace.graceEnd(CREATED);
        BucketStatus.Ready ready = new BucketStatus.Ready("settings", IDENTITY, Optional.of(grantsFrom), true);

        Optional<String> early = ready.grantsWithheld(at(CREATED.plusSeconds(5)).instant());
        assertTrue(early.isPresent());
        assertTrue(early.get().contains("until " + grantsFrom), early.get());
        assertTrue(ready.grantsWithheld(at(grantsFrom.minusMillis(1)).instant()).isPresent());
        assertEquals(Optional.empty(), ready.grantsWithheld(at(grantsFrom).instant()));
        assertEquals(Optional.empty(), ready.grantsWithheld(at(grantsFrom.plus(Duration.ofDays(1))).instant()));
        assertTrue(ready.describe().contains("no free key is granted until " + grantsFrom), ready.describe());
    }

    /**
     * During the grace no lease in the replacement can be legitimate: a lease that reached it anyway
     * (a stale instance, a raw write, a reconnect buffer flushing a timed-out acquire) must not be
     * renewed into ownership. Every put is withheld; a release or a revoke may pass.
     */
    @Test
    void whileGrantsAreWithheldEveryPutIsWithheldAndReleasesPass() {
        Instant grantsFrom = ReplacementGrace.graceEnd(CREATED);
        BucketStatus.Ready ready = new BucketStatus.Ready("settings", IDENTITY, Optional.of(grantsFrom), true);
        Instant early = CREATED.plusSeconds(5);
        LeaseKey key = new LeaseKey("k");
        LeaseTtl ttl = LeaseTtl.ofSeconds(30);
        LeaseWrite.Put acquire = new LeaseWrite.Put(key, 0, LeaseEvent.ACQUIRED, Claimant.of(new HolderId("h")), early, early, ttl,
                Optional.empty());
        LeaseWrite.Put renew = new LeaseWrite.Put(key, 7, LeaseEvent.RENEWED, Claimant.of(new HolderId("h")), early, early, ttl,
                Optional.empty());

        assertTrue(ready.writeWithheld(acquire, early).isPresent());
        assertTrue(ready.writeWithheld(renew, early).isPresent());
        Lease held = renew.leaseAt(new Fence(7));
        assertEquals(Optional.empty(), ready.writeWithheld(new LeaseWrite.Tombstone(held, Optional.empty()), early));
        assertEquals(Optional.empty(), ready.writeWithheld(
                new LeaseWrite.Tombstone(held, Optional.of(new RevokeReason("stale"))), early));
        assertEquals(Optional.empty(), ready.writeWithheld(renew, grantsFrom));
    }

    @Test
    void aBucketWithoutAGracePeriodGrantsAtOnce() {
        BucketStatus.Ready ready = new BucketStatus.Ready("settings", IDENTITY, Optional.empty(), true);

        assertEquals(Optional.empty(), ready.grantsWithheld(CREATED));
    }

    /** A bucket no replica can serve is "do not retry"; one only this replica refuses (its identity mode) is "retry". */
    @Test
    void aBucketOnlyThisReplicaRefusesIsAnsweredUnavailable() {
        String reason = IdentityMode.OFF.refusal(Map.of(IdentityMode.METADATA, "accounts")).orElseThrow();
        BucketStatus.Refusal refusal = BucketStatus.Unsupported.forThisReplica(reason).refusal().orElseThrow();

        assertEquals(ErrorKind.UNAVAILABLE, refusal.kind());
        assertEquals(reason, refusal.sentence());
        assertTrue(BucketStatus.Unsupported.forThisReplica(reason).describe().startsWith("leases unsupported: "));
        assertEquals(ErrorKind.UNSUPPORTED, new BucketStatus.Unsupported("nats-server 2.9.25 is older than 2.11")
                .refusal().orElseThrow().kind());
    }
}
