package io.dagnats.leases.acceptance.operations;

import static io.dagnats.leases.acceptance.harness.WireClient.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.CliProcess;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 29: a library holder renews every few seconds, so a revision read with {@code get} is stale by
 * the time an operator types {@code revoke --revision}. The tenure (and the incarnation) do not change
 * while the holder renews: {@code ls} and {@code get} show them, and {@code revoke --tenure} uses it.
 */
class TenureCliAcceptanceTest extends OperatorCliService {

    @Test
    void revokeByTenureFreesTheLeaseTheOperatorLookedAtThoughItWasRenewedSince() {
        long tenure = acquired("tenure-revoke", "holder-t", 60_000);
        long renewed = client.renew("tenure-revoke", "holder-t", tenure).path("revision").asLong();
        renewed = client.renew("tenure-revoke", "holder-t", renewed).path("revision").asLong();

        CliProcess.Result revoked = cli("leases", "revoke", "tenure-revoke", "--tenure", Long.toString(tenure),
                "--reason", "stuck after deploy");

        assertEquals(0, revoked.exitCode(), revoked.toString());
        assertTrue(revoked.out().startsWith("revoked tenure-revoke from holder-t (its revision " + renewed),
                revoked.toString());
        assertEquals("lost", client.renew("tenure-revoke", "holder-t", renewed).path("kind").asText());
        assertFalse(client.owner("tenure-revoke").path("held").asBoolean());
    }

    @Test
    void revokeByATenureThatEndedLeavesTheNewTenureAloneAndExitsOne() {
        long first = acquired("tenure-ended", "holder-e", 60_000);
        client.release("tenure-ended", "holder-e", first);
        long second = acquired("tenure-ended", "holder-e", 60_000);

        CliProcess.Result refused = cli("leases", "revoke", "tenure-ended", "--tenure", Long.toString(first),
                "--reason", "old tenure");

        assertEquals(1, refused.exitCode(), refused.toString());
        assertEquals("dagnats: not revoked: tenure-ended is held by holder-e in tenure " + second + " (revision "
                + second + "), not tenure " + first, refused.err().strip());
        assertEquals(second, client.owner("tenure-ended").path("revision").asLong());
    }

    @Test
    void revisionAndTenureTogetherAreAUsageMistake() {
        CliProcess.Result both = cli("leases", "revoke", "some-key", "--tenure", "4", "--revision", "5",
                "--reason", "both");

        assertEquals(2, both.exitCode(), both.toString());
    }

    @Test
    void lsAndGetShowTheTenureAndTheIncarnationWhichRenewalsDoNotChange() {
        JsonNode granted = client.call("acquire", "{\"key\":\"tenure-show\",\"holder\":\"holder-i\","
                + "\"incarnation\":\"run-7\",\"ttl_ms\":60000}");
        long tenure = granted.path("revision").asLong();
        long renewed = client.call("renew", "{\"key\":\"tenure-show\",\"holder\":\"holder-i\","
                + "\"incarnation\":\"run-7\",\"revision\":" + tenure + "}").path("revision").asLong();

        CliProcess.Result listed = cli("leases", "ls", "tenure-show");
        CliProcess.Result got = cli("leases", "get", "tenure-show");
        CliProcess.Result gotJson = cli("leases", "get", "tenure-show", "-o", "json");

        assertEquals(0, listed.exitCode(), listed.toString());
        List<String> header = List.of(listed.outLines().get(0).split("\\s+"));
        List<String> row = List.of(listed.outLines().get(1).split("\\s+"));
        assertEquals("TENURE", header.get(3), listed.toString());
        assertEquals("INCARNATION", header.get(header.size() - 1), listed.toString());
        assertEquals(List.of("tenure-show", "holder-i", Long.toString(renewed), Long.toString(tenure)),
                row.subList(0, 4), listed.toString());
        assertEquals("run-7", row.get(row.size() - 1), listed.toString());
        assertTrue(got.out().contains("tenure       " + tenure), got.toString());
        assertTrue(got.out().contains("incarnation  run-7"), got.toString());
        JsonNode view = json(gotJson.out());
        assertEquals(tenure, view.path("tenure").asLong(), view.toString());
        assertEquals("run-7", view.path("incarnation").asText(), view.toString());
    }
}
