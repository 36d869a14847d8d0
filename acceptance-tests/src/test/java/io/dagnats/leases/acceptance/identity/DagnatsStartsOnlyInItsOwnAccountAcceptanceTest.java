package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.IdentityNats;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.nats.client.Nats;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * In identity mode dagnats starts only in the account its configuration names, and only once it
 * has learnt from the server which account that is.
 */
class DagnatsStartsOnlyInItsOwnAccountAcceptanceTest extends IdentityModeService {

    /**
     * Identity mode refuses requests from dagnats' own account because anyone there can write
     * Nats-Request-Info; that holds only if dagnats runs in the account its configuration names. It
     * asks the server ($SYS.REQ.USER.INFO) at start, and does not start in another one: here it is
     * connected in DAGNATS and told it runs in B, so it would have believed a header naming any account
     * but B from anyone in DAGNATS, and refused B's own callers.
     */
    @Test
    void dagnatsDoesNotStartInAnotherAccountThanItsConfigurationNames() {
        IllegalStateException refused = refusedStart(IdentityNats.settings(nats, "dagnats", Map.of(
                "DAGNATS_IDENTITY", "accounts", "DAGNATS_IDENTITY_ACCOUNT", "B", "DAGNATS_IDENTITY_OPERATORS", "OPS")));

        assertTrue(refused.getMessage().contains("account DAGNATS"), refused.getMessage());
        assertTrue(refused.getMessage().contains("DAGNATS_IDENTITY_ACCOUNT is B"), refused.getMessage());
    }

    /** Its user may not ask the server which account it is in (the intruder may publish to api.leases.> only). */
    @Test
    void dagnatsThatCannotLearnItsAccountDoesNotStart() {
        IllegalStateException refused = refusedStart(IdentityNats.settings(nats, "intruder", Map.of(
                "DAGNATS_IDENTITY", "accounts", "DAGNATS_IDENTITY_ACCOUNT", "DAGNATS")));

        assertTrue(refused.getMessage().contains("$SYS.REQ.USER.INFO"), refused.getMessage());
    }

    /** The start's failure; a dagnats that started anyway is stopped before the test fails. */
    private static IllegalStateException refusedStart(Settings settings) {
        DagnatsServer started;
        try {
            started = DagnatsServer.start(settings);
        } catch (IllegalStateException refused) {
            assertFalse(refused.getMessage().contains("\n"), "not one line: " + refused.getMessage());
            return refused;
        }
        try {
            started.close();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        throw new AssertionError("dagnats started in identity mode: " + started.status().describe());
    }
}
