package io.dagnats.leases.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Identity mode's rules (ADR-036): keys per account, a holder id bound to the principal that took it. */
class CallerIdentityRulesTest {

    private static final Account A = new Account("A");
    private static final Account B = new Account("B");
    private static final Principal ALICE = Principal.of(A, "alice");
    private static final Principal AMOS = Principal.of(A, "amos");
    private static final Principal ACCOUNT_B = Principal.of(B);
    private static final HolderId WORKER = new HolderId("worker-1");
    private static final Claimant CLAIMED = Claimant.of(WORKER, new Incarnation("run-1"));
    private static final LeaseTtl TTL = LeaseTtl.ofSeconds(15);
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");

    private static Lease grantedTo(Caller caller, String key, long revision) {
        Decision<Acquisition> decision = LeaseRules.acquire(
                new KeyState.Free(caller.key(key), 0), caller.claimant(CLAIMED), TTL, T0);
        return ((LeaseWrite.Put) assertInstanceOf(Decision.Apply.class, decision).write()).leaseAt(new Fence(revision));
    }

    @Test
    void theSameKeyNameInTwoAccountsIsTwoKeys() {
        Caller alice = new Caller.Member(ALICE);
        Caller b = new Caller.Member(ACCOUNT_B);

        assertNotEquals(alice.key("leader"), b.key("leader"));
        assertEquals("leader", alice.key("leader").value());
        assertEquals(Optional.of(A), alice.key("leader").account());
        assertEquals(new LeaseKey("leader"), Caller.SHARED.key("leader"));
    }

    @Test
    void aLeaseRecordsThePrincipalThatTookIt() {
        Lease lease = grantedTo(new Caller.Member(ALICE), "leader", 7);

        assertEquals(Optional.of(ALICE), lease.principal());
        assertEquals(Optional.of(ALICE), lease.claimant().principal());
    }

    @Test
    void anotherUserOfTheSameAccountCannotRenewOrReleaseUnderTheSameHolderId() {
        Lease lease = grantedTo(new Caller.Member(ALICE), "leader", 7);
        KeyState held = new KeyState.Held(lease);
        Claimant amos = new Caller.Member(AMOS).claimant(CLAIMED);

        Lost renew = assertInstanceOf(Lost.class, assertInstanceOf(Decision.Answer.class,
                LeaseRules.renew(held, amos, new Fence(7), Optional.empty(), T0)).outcome());
        assertEquals(Lost.Reason.HELD_BY_OTHER, renew.reason());
        assertTrue(renew.detail().contains("another principal"), renew.detail());
        assertInstanceOf(Lost.class, assertInstanceOf(Decision.Answer.class,
                LeaseRules.release(held, amos, new Fence(7))).outcome());
        assertInstanceOf(Acquisition.HeldByOther.class, assertInstanceOf(Decision.Answer.class,
                LeaseRules.acquire(held, amos, TTL, T0)).outcome());
    }

    @Test
    void theSamePrincipalRenewsItsOwnLease() {
        Lease lease = grantedTo(new Caller.Member(ALICE), "leader", 7);
        Claimant alice = new Caller.Member(ALICE).claimant(CLAIMED);

        LeaseWrite.Put put = (LeaseWrite.Put) assertInstanceOf(Decision.Apply.class,
                LeaseRules.renew(new KeyState.Held(lease), alice, new Fence(7), Optional.empty(), T0)).write();
        assertEquals(Optional.of(ALICE), put.leaseAt(new Fence(8)).principal());
        assertTrue(put.leaseAt(new Fence(8)).sameTenureAs(lease));
    }

    @Test
    void withoutASharedUserEveryUserOfTheAccountIsOnePrincipal() {
        Lease lease = grantedTo(new Caller.Member(Principal.of(A)), "leader", 7);

        assertTrue(lease.isHeldBy(new Caller.Member(Principal.of(A)).claimant(CLAIMED)));
        assertFalse(lease.isHeldBy(new Caller.Member(ALICE).claimant(CLAIMED)));
    }

    @Test
    void aLeaseOfOneAccountHeldByAPrincipalOfAnotherCannotBeMade() {
        LeaseKey keyOfA = LeaseKey.in(A, "leader");
        Claimant ofB = new Caller.Member(ACCOUNT_B).claimant(CLAIMED);

        assertThrows(IllegalArgumentException.class, () -> new LeaseWrite.Put(
                keyOfA, 0, LeaseEvent.ACQUIRED, ofB, T0, T0, TTL, Optional.empty()));
        assertThrows(IllegalArgumentException.class, () -> new Lease(keyOfA, WORKER, Optional.empty(),
                Optional.of(ACCOUNT_B), new Fence(1), new Fence(1), T0, T0, TTL));
        // Nor a namespaced key without a principal, or a principal on the shared namespace.
        assertThrows(IllegalArgumentException.class, () -> new Lease(keyOfA, WORKER, new Fence(1), new Fence(1),
                T0, T0, TTL));
        assertThrows(IllegalArgumentException.class, () -> new Lease(new LeaseKey("leader"), WORKER,
                Optional.empty(), Optional.of(ALICE), new Fence(1), new Fence(1), T0, T0, TTL));
    }

    @Test
    void onlyAnOperatorMayRevokeAndOnlyItListsEveryAccount() {
        Caller operator = new Caller.Operator(Principal.of(new Account("OPS"), "ops"));
        Caller member = new Caller.Member(ALICE);

        assertTrue(operator.mayRevoke());
        assertFalse(member.mayRevoke());
        assertTrue(Caller.SHARED.mayRevoke());
        assertEquals(Optional.of(LeaseKey.in(B, "leader")), operator.named("leader", Optional.of(B)));
        assertThrows(InvalidLeaseInput.class, () -> Caller.SHARED.named("leader", Optional.of(B)));
        assertEquals(Optional.of(LeaseKey.in(A, "leader")), member.named("leader", Optional.of(A)));
        assertEquals(Optional.of(LeaseKey.in(A, "leader")), member.named("leader", Optional.empty()));
        assertEquals(Optional.empty(), member.named("leader", Optional.of(B)));

        assertTrue(operator.listed().contains(LeaseKey.in(B, "x")));
        assertFalse(operator.listed().contains(new LeaseKey("x")));
        assertTrue(member.listed().contains(LeaseKey.in(A, "x")));
        assertFalse(member.listed().contains(LeaseKey.in(B, "x")));
        assertFalse(Caller.SHARED.listed().contains(LeaseKey.in(A, "x")));
        assertTrue(new KeyPrefix("sh", member.listed()).matches(LeaseKey.in(A, "shard-1")));
        assertFalse(new KeyPrefix("sh", member.listed()).matches(LeaseKey.in(B, "shard-1")));
    }

    @Test
    void accountsAndUsersHaveTheirSyntax() {
        assertThrows(InvalidLeaseInput.class, () -> new Account("a.b"));
        assertThrows(InvalidLeaseInput.class, () -> new Account("x".repeat(65)));
        new Account("A".repeat(56));
        assertThrows(InvalidLeaseInput.class, () -> Principal.of(A, ""));
        assertThrows(InvalidLeaseInput.class, () -> Principal.of(A, "line\nbreak"));
        assertEquals("A/alice", ALICE.toString());
    }
}
