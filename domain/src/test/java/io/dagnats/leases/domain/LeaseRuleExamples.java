package io.dagnats.leases.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.time.Instant;

/** The key, holders and instants the lease rule tests decide about, and how they check a lost answer. */
final class LeaseRuleExamples {

    static final LeaseKey KEY = new LeaseKey("notify-leader");
    static final HolderId ALICE_ID = new HolderId("notify-7f3a");
    static final Claimant ALICE = Claimant.of(ALICE_ID);
    static final Claimant BOB = Claimant.of(new HolderId("notify-19bc"));
    static final Claimant ALICE_RUN_1 = Claimant.of(ALICE_ID, new Incarnation("run-1"));
    static final Claimant ALICE_RUN_2 = Claimant.of(ALICE_ID, new Incarnation("run-2"));
    static final LeaseTtl TTL = LeaseTtl.ofSeconds(15);
    static final Instant T0 = Instant.parse("2026-10-18T12:00:00Z");
    static final Instant T1 = Instant.parse("2026-10-18T12:00:05Z");

    private LeaseRuleExamples() {
    }

    static KeyState.Held heldByAlice(long revision, long tenure) {
        return new KeyState.Held(new Lease(KEY, ALICE_ID, new Fence(revision), new Fence(tenure), T0, T1, TTL));
    }

    static KeyState.Held heldBy(Claimant claimant, long revision, long tenure) {
        return new KeyState.Held(new Lease(KEY, claimant.holder(), claimant.incarnation(), new Fence(revision),
                new Fence(tenure), T0, T1, TTL));
    }

    static void assertLost(Decision<?> decision, Lost.Reason reason) {
        Object outcome = assertInstanceOf(Decision.Answer.class, decision).outcome();
        Lost lost = assertInstanceOf(Lost.class, outcome);
        assertEquals(reason, lost.reason());
        assertEquals(KEY, lost.key());
    }
}
