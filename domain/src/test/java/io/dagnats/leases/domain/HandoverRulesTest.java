package io.dagnats.leases.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A handover is checked exactly as a renew, then begins the successor's tenure in one compare-and-set (ADR-042). */
class HandoverRulesTest {

    private static final LeaseKey KEY = new LeaseKey("orders");
    private static final Instant EARLIER = Instant.parse("2026-12-04T10:00:00Z");
    private static final Instant NOW = Instant.parse("2026-12-04T10:00:05Z");
    private static final Claimant OWNER = Claimant.of(new HolderId("h1"), new Incarnation("i1"));
    private static final Claimant SUCCESSOR = Claimant.of(new HolderId("h2"), new Incarnation("i2"));
    private static final Lease LEASE = new Lease(KEY, OWNER.holder(), OWNER.incarnation(), new Fence(12),
            new Fence(10), EARLIER, EARLIER, new LeaseTtl(15_000));
    private static final HandoverCheck YES = new HandoverCheck("4fLoBfgQWxGpHBz8ysTzQd");

    @Test
    void theOwnerAtItsFenceHandsOverInOnePutThatBeginsTheSuccessorsTenure() {
        Decision<Handover> decision = LeaseRules.handover(new KeyState.Held(LEASE), OWNER, new Fence(12), SUCCESSOR,
                Optional.empty(), Optional.of(YES), NOW);

        LeaseWrite.Put put = (LeaseWrite.Put) assertInstanceOf(Decision.Apply.class, decision).write();
        assertEquals(12, put.expectedSequence());
        assertEquals(LeaseEvent.HANDED_OVER, put.event());
        assertEquals(SUCCESSOR, put.claimant());
        assertEquals(Optional.of(OWNER.holder()), put.from());
        assertEquals(LEASE.ttl(), put.ttl(), "the lease's TTL is kept");
        assertEquals(Optional.of(YES), put.check(), "the write names the yes it answers (ADR-047)");
        Lease successors = put.leaseAt(new Fence(13));
        assertEquals(new Fence(13), successors.tenure());
        assertEquals(NOW, successors.acquiredAt());
    }

    @Test
    void whatARenewWouldLoseTheHandoverLosesTooAndWritesNothing() {
        assertLost(Lost.Reason.STALE_FENCE, LeaseRules.handover(new KeyState.Held(LEASE), OWNER, new Fence(11),
                SUCCESSOR, Optional.empty(), Optional.empty(), NOW));
        assertLost(Lost.Reason.HELD_BY_OTHER, LeaseRules.handover(new KeyState.Held(LEASE),
                Claimant.of(OWNER.holder(), new Incarnation("other")), new Fence(12), SUCCESSOR, Optional.empty(), Optional.empty(), NOW));
        assertLost(Lost.Reason.NOT_HELD, LeaseRules.handover(new KeyState.Free(KEY, 12), OWNER, new Fence(12),
                SUCCESSOR, Optional.empty(), Optional.empty(), NOW));
    }

    @Test
    void aHandoverToTheCallersOwnHolderIdIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> LeaseRules.handover(new KeyState.Held(LEASE), OWNER,
                new Fence(12), Claimant.of(OWNER.holder(), new Incarnation("i9")), Optional.empty(), Optional.empty(), NOW));
    }

    @Test
    void onlyAHandoverAnswersAYes() {
        assertThrows(IllegalArgumentException.class, () -> new LeaseWrite.Put(KEY, 12, LeaseEvent.RENEWED, OWNER,
                EARLIER, NOW, LEASE.ttl(), Optional.of(new Fence(10)), Optional.empty(), Optional.empty(),
                Optional.of(YES)));
        assertThrows(InvalidLeaseInput.class, () -> new HandoverCheck("two.tokens"));
    }

    private static void assertLost(Lost.Reason reason, Decision<Handover> decision) {
        Lost lost = assertInstanceOf(Lost.class, assertInstanceOf(Decision.Answer.class, decision).outcome());
        assertEquals(reason, lost.reason());
    }
}
