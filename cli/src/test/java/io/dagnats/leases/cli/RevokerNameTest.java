package io.dagnats.leases.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Revoker;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RevokerNameTest {

    @Test
    void theDefaultRevokerIsUserAtHostOrWhicheverIsKnown() {
        assertEquals(Optional.of(new Revoker("alice@ops-1")), RevokerName.of("alice", "ops-1"));
        assertEquals(Optional.of(new Revoker("alice")), RevokerName.of("alice", ""));
        assertEquals(Optional.of(new Revoker("ops-1")), RevokerName.of(" ", "ops-1"));
        assertEquals(Optional.empty(), RevokerName.of("", ""));
    }

    @Test
    void aNameAHeaderCannotCarryIsMadeOneNotDropped() {
        assertEquals(Optional.of(new Revoker("Ren?e@ops-1")), RevokerName.of("Ren\u00e9e", "ops-1"));
        assertEquals(Revoker.MAX_LENGTH, RevokerName.of("u".repeat(400), "h").orElseThrow().value().length());
    }
}
