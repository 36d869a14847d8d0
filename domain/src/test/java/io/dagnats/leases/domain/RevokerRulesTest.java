package io.dagnats.leases.domain;

import static io.dagnats.leases.domain.LeaseRuleExamples.heldByAlice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Who a revoke write names as its revoker (ADR-041): the vouched principal, else the claim, else nobody. */
class RevokerRulesTest {

    private static final Optional<Revoker> CLAIMED = Optional.of(new Revoker("alice@ops-1"));

    @Test
    void inIdentityModeTheVouchedPrincipalIsNamedWhateverTheRequestClaims() {
        Caller operator = new Caller.Operator(Principal.of(new Account("OPS"), "carol"));

        assertEquals(Optional.of(new Revoker("OPS/carol")), Revoker.named(operator, CLAIMED));
        assertEquals(Optional.of(new Revoker("OPS")), Revoker.named(new Caller.Operator(Principal.of(new Account("OPS"))),
                Optional.empty()));
    }

    @Test
    void withIdentityModeOffTheClaimIsNamedOrNobody() {
        assertEquals(CLAIMED, Revoker.named(Caller.SHARED, CLAIMED));
        assertEquals(Optional.empty(), Revoker.named(Caller.SHARED, Optional.empty()));
    }

    @Test
    void theRevokeTombstoneCarriesTheRevokerAndTheDecidedAgainOneToo() {
        Decision<Revocation> decision = LeaseRules.revoke(heldByAlice(42, 40), Optional.empty(), new RevokeReason("r"),
                CLAIMED);
        LeaseWrite.Tombstone tombstone =
                assertInstanceOf(LeaseWrite.Tombstone.class, assertInstanceOf(Decision.Apply.class, decision).write());
        assertEquals(CLAIMED, tombstone.revokedBy());

        Decision<Revocation> again = LeaseRules.revokeAgain(heldByAlice(43, 40), heldByAlice(42, 40).lease(),
                new RevokeReason("r"), CLAIMED);
        assertEquals(CLAIMED, ((LeaseWrite.Tombstone) assertInstanceOf(Decision.Apply.class, again).write()).revokedBy());
    }

    @Test
    void aRevokerIsAHeaderValueAndAReleaseNamesNone() {
        assertThrows(InvalidLeaseInput.class, () -> new Revoker(""));
        assertThrows(InvalidLeaseInput.class, () -> new Revoker(" alice"));
        assertThrows(InvalidLeaseInput.class, () -> new Revoker("a\nb"));
        assertThrows(InvalidLeaseInput.class, () -> new Revoker("r".repeat(Revoker.MAX_LENGTH + 1)));
        assertThrows(IllegalArgumentException.class,
                () -> new LeaseWrite.Tombstone(heldByAlice(42, 40).lease(), Optional.empty(), CLAIMED, Optional.empty()));
    }
}
