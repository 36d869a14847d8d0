package io.dagnats.leases.acceptance.operations;

import static io.dagnats.leases.acceptance.harness.WireClient.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.WireClient;
import org.junit.jupiter.api.Test;

/**
 * {@code dagnats leases watch}: a line per change, naming whose lease expired and who was revoked.
 */
class OperatorCliWatchAcceptanceTest extends OperatorCliService {

    @Test
    void watchPrintsALinePerChangeNamingWhoseLeaseExpiredAndWhoWasRevoked() throws Exception {
        // Held before the watch begins, ending after: only the watch's listing can name its holder.
        long listed = acquired("watch-listed", "early-bird", 10_000);
        try (CliProcess text = CliProcess.start(service.nats.url(), "leases", "watch", "--prefix", "watch-");
                CliProcess json = CliProcess.start(service.nats.url(), "leases", "watch", "--prefix", "watch-",
                        "-o", "json")) {
            text.awaitErr(WATCH_LIMIT, "the text watch to begin", err -> err.contains("(Ctrl-C to stop)"));
            json.awaitErr(WATCH_LIMIT, "the JSON watch to begin", err -> err.contains("(Ctrl-C to stop)"));
            assertTrue(client.owner("watch-listed").path("held").asBoolean(),
                    "the watches took longer to begin than the lease lived");

            long acquired = acquired("watch-a", "holder-1", 15_000);
            long renewed = client.renew("watch-a", "holder-1", acquired).path("revision").asLong();
            long released = client.release("watch-a", "holder-1", renewed).path("revision").asLong();
            long seen = acquired("watch-short", "holder-2", 1_000);
            long revoked = acquired("watch-r", "holder-3", 60_000);
            assertEquals(0, cli("leases", "revoke", "watch-r", "--reason", "stuck after deploy", "--by", "ops@ci").exitCode());
            client.acquire("other-key", "holder-4", 15_000);

            String lines = text.awaitOut(WATCH_LIMIT, "both expiries", out -> out.contains("expired   watch-listed")
                    && out.contains("expired   watch-short"));
            assertLine(lines, "acquired  watch-a  by holder-1  revision " + acquired + "  ttl 15s");
            assertLine(lines, "renewed   watch-a  by holder-1  revision " + renewed + "  ttl 15s");
            // A change that ends a lease names the lease's revision, and its own as seq (what --since takes).
            assertLine(lines, "released  watch-a  by holder-1  revision " + renewed + "  seq " + released);
            assertLine(lines, "revoked   watch-r  from holder-3  revoked by ops@ci  revision " + revoked + "  seq ", "  reason \"stuck after deploy\"");
            assertLine(lines, "expired   watch-short  lease of holder-2  revision " + seen + "  seq ", "");
            assertLine(lines, "expired   watch-listed  lease of early-bird  revision " + listed + "  seq ", "");
            assertFalse(lines.contains("other-key"), lines);
            assertEquals(1, lines.lines().filter(line -> line.contains("watch-a") && line.contains("released")).count(),
                    "a release's tombstone expiring is no second line: " + lines);

            String objects = json.awaitOut(WATCH_LIMIT, "the JSON expiry",
                    out -> out.contains("\"event\":\"expired\",\"key\":\"watch-listed\""));
            JsonNode expiry = objects.lines().map(WireClient::json)
                    .filter(event -> event.path("key").asText().equals("watch-listed")).findFirst().orElseThrow();
            assertEquals("early-bird", expiry.path("holder").asText(), expiry.toString());
            assertEquals(listed, expiry.path("revision").asLong());
            JsonNode revocation = objects.lines().map(WireClient::json)
                    .filter(event -> event.path("event").asText().equals("revoked")).findFirst().orElseThrow();
            assertEquals("holder-3", revocation.path("holder").asText());
            assertEquals("stuck after deploy", revocation.path("reason").asText());
            assertEquals("ops@ci", revocation.path("revoked_by").asText(), revocation.toString());

            text.signal("INT");
            json.signal("TERM");
            CliProcess.Result interrupted = text.awaitExit(WATCH_LIMIT);
            CliProcess.Result terminated = json.awaitExit(WATCH_LIMIT);
            assertEquals(0, interrupted.exitCode(), interrupted.toString());
            assertEquals(0, terminated.exitCode(), terminated.toString());
            assertFalse(interrupted.err().contains("Exception") || interrupted.err().contains("\tat "), interrupted.toString());
            assertFalse(terminated.err().contains("Exception") || terminated.err().contains("\tat "), terminated.toString());
        }
    }

    private static void assertLine(String lines, String expected) {
        assertTrue(lines.lines().anyMatch(line -> line.matches("\\S+Z  " + java.util.regex.Pattern.quote(expected))),
                "no line \"<time>  " + expected + "\" in:\n" + lines);
    }

    /** A line of {@code before}, a revision, then {@code after}. */
    private static void assertLine(String lines, String before, String after) {
        assertTrue(lines.lines().anyMatch(line -> line.matches("\\S+Z  " + java.util.regex.Pattern.quote(before) + "\\d+"
                + java.util.regex.Pattern.quote(after))), "no line \"<time>  " + before + "<seq>" + after + "\" in:\n" + lines);
    }
}
