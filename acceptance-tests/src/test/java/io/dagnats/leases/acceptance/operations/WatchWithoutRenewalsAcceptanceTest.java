package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.CliProcess;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 29: library holders renew every few seconds, so a watch of a few keys drowned in renewals.
 * {@code leases watch --no-renewals} prints ownership changes only (acquired, released, revoked,
 * expired), and still names the last renewed revision of a lease that expires.
 */
class WatchWithoutRenewalsAcceptanceTest extends OperatorCliService {

    @Test
    void watchWithoutRenewalsPrintsOwnershipChangesOnly() throws Exception {
        try (CliProcess watch = CliProcess.start(service.nats.url(), "leases", "watch", "--prefix", "wnr-",
                "--no-renewals")) {
            String begun = watch.awaitErr(WATCH_LIMIT, "the watch to begin", err -> err.contains("(Ctrl-C to stop)"));
            assertTrue(begun.contains("renewals hidden"), begun);

            long acquired = acquired("wnr-a", "holder-1", 15_000);
            long renewed = acquired;
            for (int i = 0; i < 3; i++) {
                renewed = client.renew("wnr-a", "holder-1", renewed).path("revision").asLong();
            }
            client.release("wnr-a", "holder-1", renewed);
            long short1 = acquired("wnr-short", "holder-2", 1_000);
            long shortRenewed = client.renew("wnr-short", "holder-2", short1).path("revision").asLong();

            String lines = watch.awaitOut(WATCH_LIMIT, "the expiry", out -> out.contains("expired   wnr-short"));
            assertLine(lines, "acquired  wnr-a  by holder-1  revision " + acquired + "  ttl 15s");
            assertLine(lines, "released  wnr-a  by holder-1  revision " + renewed + "  seq ");
            assertLine(lines, "expired   wnr-short  lease of holder-2  revision " + shortRenewed + "  seq ");
            assertFalse(lines.contains("renewed"), lines);
        }
    }

    private static void assertLine(String lines, String expected) {
        assertTrue(lines.lines().anyMatch(line -> line.matches("\\S+Z  " + Pattern.quote(expected) + ".*")),
                "no line \"<time>  " + expected + "...\" in:\n" + lines);
    }
}
