package io.dagnats.leases.acceptance.operations;

import static io.dagnats.leases.acceptance.harness.WireClient.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The operator CLI ({@code dagnats leases ...}) run as a process of its own
 * against a real nats-server and dagnats, as an operator runs it.
 */
class OperatorCliAcceptanceTest extends OperatorCliService {

    @Test
    void lsPrintsATableSortedByKeyWithACountOfThePrefixOnly() {
        long b = acquired("lsx-b", "holder-b", 60_000);
        long a = acquired("lsx-a", "holder-a", 60_000);
        long c = acquired("lsx-c", "holder-c", 60_000);
        acquired("other-lsx", "holder-o", 60_000);

        CliProcess.Result listed = cli("leases", "ls", "lsx-");

        assertEquals(0, listed.exitCode(), listed.toString());
        List<String> lines = listed.outLines();
        assertEquals(5, lines.size(), listed.toString());
        assertEquals(List.of("KEY", "HOLDER", "REVISION", "TENURE", "ACQUIRED", "EXPIRES", "IN", "TTL", "INCARNATION"),
                List.of(lines.get(0).split("\\s+")), listed.toString());
        assertRow(lines.get(1), "lsx-a", "holder-a", a);
        assertRow(lines.get(2), "lsx-b", "holder-b", b);
        assertRow(lines.get(3), "lsx-c", "holder-c", c);
        assertEquals("3 leases with keys starting with lsx-", lines.get(4));
        assertEquals("", listed.err());
    }

    private static void assertRow(String line, String key, String holder, long revision) {
        String[] cells = line.split("\\s+");
        assertEquals(List.of(key, holder, Long.toString(revision), Long.toString(revision), "1m", "-"),
                List.of(cells[0], cells[1], cells[2], cells[3], cells[6], cells[7]), line);
        assertTrue(cells[4].matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), line);
        assertTrue(cells[5].matches("\\d+\\.\\ds"), "expires in: " + line);
    }

    @Test
    void lsAsJsonGivesEachLeaseViewAndTheCount() {
        long revision = acquired("lsj-1", "holder-j", 30_000);
        acquired("lsj-0", "holder-j", 30_000);

        CliProcess.Result listed = cli("leases", "ls", "lsj-", "-o", "json");

        assertEquals(0, listed.exitCode(), listed.toString());
        JsonNode body = json(listed.out());
        assertEquals(2, body.path("count").asInt(), body.toString());
        JsonNode second = body.path("leases").get(1);
        assertEquals("lsj-0", body.path("leases").get(0).path("key").asText(), body.toString());
        assertEquals("lsj-1", second.path("key").asText());
        assertEquals("holder-j", second.path("holder").asText());
        assertEquals(revision, second.path("revision").asLong());
        assertEquals(30_000, second.path("ttl_ms").asLong());
        long left = second.path("expires_in_ms").asLong();
        assertTrue(left > 0 && left <= 30_000, second.toString());
        assertTrue(second.path("acquired_at").asText().endsWith("Z"), second.toString());
    }

    @Test
    void lsWalksEveryPageAndListsEachKeyOnce() {
        List<CompletableFuture<JsonNode>> acquires = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            acquires.add(client.callAsync("acquire",
                    String.format("{\"key\":\"page-%03d\",\"holder\":\"pager\",\"ttl_ms\":60000}", i)));
        }
        acquires.forEach(CompletableFuture::join);

        CliProcess.Result listed = cli("leases", "ls", "page-", "--page-size", "7", "-o", "json");

        assertEquals(0, listed.exitCode(), listed.toString());
        JsonNode body = json(listed.out());
        assertEquals(250, body.path("count").asInt());
        List<String> keys = new ArrayList<>();
        body.path("leases").forEach(lease -> keys.add(lease.path("key").asText()));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            expected.add(String.format("page-%03d", i));
        }
        assertEquals(expected, keys);
    }

    @Test
    void getShowsAHeldLeaseInFullOrThatTheKeyIsFree() {
        long revision = acquired("get-held", "holder-g", 15_000);

        CliProcess.Result held = cli("leases", "get", "get-held");
        CliProcess.Result heldJson = cli("leases", "get", "get-held", "-o", "json");
        CliProcess.Result free = cli("leases", "get", "get-free");
        CliProcess.Result freeJson = cli("leases", "get", "get-free", "-o", "json");

        assertEquals(0, held.exitCode(), held.toString());
        assertTrue(held.out().contains("holder    holder-g"), held.toString());
        assertTrue(held.out().contains("revision  " + revision), held.toString());
        assertTrue(held.out().contains("ttl       15s"), held.toString());
        JsonNode view = json(heldJson.out());
        assertTrue(view.path("held").asBoolean(), view.toString());
        assertEquals(revision, view.path("revision").asLong());
        assertEquals(0, free.exitCode(), free.toString());
        assertEquals("get-free is free", free.out().strip());
        assertEquals("{\"held\":false,\"key\":\"get-free\"}", freeJson.out().strip());
    }

    @Test
    void revokeFreesTheKeySoTheHoldersRenewIsLost() {
        long revision = acquired("revoke-me", "holder-r", 60_000);

        CliProcess.Result revoked = cli("leases", "revoke", "revoke-me", "--reason", "stuck after deploy", "-o", "json");

        assertEquals(0, revoked.exitCode(), revoked.toString());
        JsonNode answer = json(revoked.out());
        assertTrue(answer.path("revoked").asBoolean(), answer.toString());
        assertEquals("holder-r", answer.path("holder").asText());
        assertEquals(revision, answer.path("revoked_revision").asLong());
        assertEquals("lost", client.renew("revoke-me", "holder-r", revision).path("kind").asText());
        assertFalse(client.owner("revoke-me").path("held").asBoolean());

        CliProcess.Result again = cli("leases", "revoke", "revoke-me", "--reason", "again");
        assertEquals(0, again.exitCode(), again.toString());
        assertEquals("revoke-me is free: nothing to revoke", again.out().strip());
    }

    @Test
    void revokeOfARevisionNoLongerCurrentChangesNothingAndExitsOne() {
        long first = acquired("revoke-stale", "holder-s", 60_000);
        long renewed = client.renew("revoke-stale", "holder-s", first).path("revision").asLong();

        CliProcess.Result refused = cli("leases", "revoke", "revoke-stale", "--revision", Long.toString(first),
                "--reason", "stale");

        assertEquals(1, refused.exitCode(), refused.toString());
        assertEquals("dagnats: not revoked: revoke-stale is held by holder-s at revision " + renewed + ", not " + first,
                refused.err().strip());
        assertEquals(renewed, client.owner("revoke-stale").path("revision").asLong());
    }

    @Test
    void aUsageMistakeExitsTwo() {
        CliProcess.Result noKey = cli("leases", "get");
        CliProcess.Result noReason = cli("leases", "revoke", "some-key");

        assertEquals(2, noKey.exitCode(), noKey.toString());
        assertTrue(noKey.err().contains("Missing required parameter: 'KEY'"), noKey.toString());
        assertEquals(2, noReason.exitCode(), noReason.toString());
        assertTrue(noReason.err().contains("--reason"), noReason.toString());
    }

    @Test
    void noServerOrNoDagnatsExitsOneWithOneLine() throws IOException {
        String nowhere = "nats://127.0.0.1:" + NatsServerProcess.freePort();
        CliProcess.Result unreachable = CliProcess.run(nowhere, "leases", "ls");

        assertEquals(1, unreachable.exitCode(), unreachable.toString());
        assertEquals(List.of("dagnats: cannot connect to NATS at " + nowhere + ": no server answered"),
                unreachable.err().lines().toList());
        assertEquals("", unreachable.out());

        try (NatsServerProcess bare = NatsServerProcess.modern()) {
            CliProcess.Result unanswered = CliProcess.run(bare.url(), "leases", "get", "some-key");
            assertEquals(1, unanswered.exitCode(), unanswered.toString());
            assertEquals(List.of("dagnats: no dagnats service answered api.leases.owner: "
                    + "is dagnats running and connected to this NATS server?"), unanswered.err().lines().toList());
        }
    }

    @Test
    void aUserNotAllowedToRevokeIsToldSoOnOneLine() throws Exception {
        Path config = Files.createTempFile("nats-", ".conf");
        Files.writeString(config, """
                authorization {
                  users = [
                    { user: holder, password: h-secret,
                      permissions: { publish: ["api.leases.owner"], subscribe: ["_INBOX.>"] } }
                  ]
                }
                """);
        try (NatsServerProcess nats = NatsServerProcess.start(NatsServerProcess.binary("nats.server.bin"), false,
                "-c", config.toString())) {
            CliProcess.Result refused = CliProcess.run(Map.of("NATS_URL", nats.url(), "NATS_USER", "holder",
                    "NATS_PASSWORD", "h-secret"), "leases", "revoke", "some-key", "--reason", "not mine to revoke");

            assertEquals(1, refused.exitCode(), refused.toString());
            assertEquals(1, refused.err().lines().count(), refused.toString());
            assertTrue(refused.err().startsWith("dagnats: permission denied:"), refused.toString());
            assertTrue(refused.err().contains("api.leases.revoke"), refused.toString());
        } finally {
            Files.deleteIfExists(config);
        }
    }
}
