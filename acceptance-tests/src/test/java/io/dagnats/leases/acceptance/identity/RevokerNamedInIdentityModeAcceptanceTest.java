package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.nats.client.Message;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * In identity mode a revoke names the principal the server vouched for (ADR-041), not what the
 * request claims: the operator's CLI sends {@code --by}, and the event A's holder sees names
 * {@code OPS/operator} (OPS's import shares its users).
 */
class RevokerNamedInIdentityModeAcceptanceTest extends IdentityModeService {

    @Test
    void theRevokedEventNamesTheOperatorsPrincipalWhateverTheCliClaims() throws Exception {
        WireClient alice = as("alice");
        List<Message> events = new CopyOnWriteArrayList<>();
        alice.connection().createDispatcher(events::add).subscribe("dagnats.lease.changed.>");
        alice.connection().flush(Duration.ofSeconds(5));
        long revision = granted(alice.acquire("revoked-by-ops", "worker-1", TTL));
        Map<String, String> operator = Map.of("NATS_URL", nats.url(), "NATS_USER", "operator",
                "NATS_PASSWORD", "operator-secret");

        CliProcess.Result revoked = CliProcess.run(operator, "leases", "revoke", "revoked-by-ops", "--account", "A",
                "--reason", "operator frees A's", "--revision", Long.toString(revision), "--by", "someone-else");

        assertEquals(0, revoked.exitCode(), revoked.toString());
        Message event = Polling.until(Duration.ofSeconds(5), "A's revoked event", () -> events.stream()
                .filter(seen -> seen.getHeaders() != null
                        && "revoked".equals(seen.getHeaders().getFirst(LeaseHeaders.EVENT)))
                .findFirst().orElse(null), found -> found != null);
        assertEquals("OPS/operator", event.getHeaders().getFirst(LeaseHeaders.REVOKED_BY),
                event.getHeaders().toString());
    }
}
