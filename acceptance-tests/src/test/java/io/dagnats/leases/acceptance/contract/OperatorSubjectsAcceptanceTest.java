package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dagnats.leases.acceptance.durability.BucketSettingsAcceptanceTest;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The operators' subjects: api.leases.list (paged) and api.leases.revoke, and the events a revoke leaves. */
class OperatorSubjectsAcceptanceTest extends SharedServiceTest {

    /** Every page of a walk with {@code prefix} and {@code pageSize}, until a reply has no next_cursor. */
    static List<JsonNode> walk(WireClient client, String prefix, int pageSize) {
        List<JsonNode> pages = new ArrayList<>();
        String cursor = null;
        do {
            ObjectNode request = WireClient.object().put("page_size", pageSize);
            if (prefix != null) {
                request.put("prefix", prefix);
            }
            if (cursor != null) {
                request.put("cursor", cursor);
            }
            JsonNode page = client.call("list", request);
            assertTrue(page.path("leases").isArray(), page.toString());
            pages.add(page);
            cursor = page.has("next_cursor") ? page.path("next_cursor").asText() : null;
            assertTrue(pages.size() < 10_000, "a walk that does not end");
        } while (cursor != null);
        return pages;
    }

    /** The leases of a walk by key, keeping the higher revision of a key listed twice. */
    static Map<String, JsonNode> leases(List<JsonNode> pages) {
        Map<String, JsonNode> byKey = new LinkedHashMap<>();
        for (JsonNode page : pages) {
            for (JsonNode lease : page.path("leases")) {
                byKey.merge(lease.path("key").asText(), lease,
                        (a, b) -> a.path("revision").asLong() >= b.path("revision").asLong() ? a : b);
            }
        }
        return byKey;
    }

    @Test
    void aFreshBucketListsNothing() throws Exception {
        try (ServiceFixture fresh = ServiceFixture.start()) {
            JsonNode page = fresh.client.call("list", "{}");

            assertEquals(0, page.path("leases").size(), page.toString());
            assertFalse(page.has("next_cursor"), page.toString());
        }
    }

    @Test
    void aWalkWithAPrefixListsEveryHeldLeaseOfItAcrossPages() {
        Map<String, Long> acquired = new LinkedHashMap<>();
        for (int i = 0; i < 25; i++) {
            String key = "paged-" + i;
            acquired.put(key, client.acquire(key, "holder-" + i, 30_000).path("revision").asLong());
            client.acquire("unpaged-" + i, "holder-" + i, 30_000);
        }

        List<JsonNode> pages = walk(client, "paged-", 7);

        assertTrue(pages.size() >= 4, pages.size() + " pages");
        for (JsonNode page : pages) {
            assertTrue(page.path("leases").size() <= 7, page.toString());
        }
        Map<String, JsonNode> listed = leases(pages);
        assertEquals(acquired.keySet(), listed.keySet());
        JsonNode one = listed.get("paged-3");
        assertEquals("holder-3", one.path("holder").asText());
        assertEquals(acquired.get("paged-3"), one.path("revision").asLong());
        assertTrue(one.path("held").asBoolean());
        assertFalse(one.has("granted"), one.toString());
        assertEquals(30_000, one.path("ttl_ms").asLong());
        assertTrue(one.has("acquired_at") && one.has("expires_at"), one.toString());
    }

    @Test
    void aCursorGoesOnWhereThePageBeforeStopped() {
        IntStream.range(0, 5).forEach(i -> client.acquire("cursor-" + i, "c", 30_000));

        JsonNode first = client.call("list", "{\"prefix\":\"cursor-\",\"page_size\":2}");
        assertTrue(first.has("next_cursor"), first.toString());
        JsonNode second = client.call("list", WireClient.object().put("prefix", "cursor-").put("page_size", 1000)
                .put("cursor", first.path("next_cursor").asText()));

        Set<String> firstKeys = keys(first);
        Set<String> secondKeys = keys(second);
        assertTrue(firstKeys.size() <= 2, first.toString());
        assertTrue(firstKeys.stream().noneMatch(secondKeys::contains), first + " then " + second);
        long lastOfFirst = 0;
        for (JsonNode lease : first.path("leases")) {
            lastOfFirst = Math.max(lastOfFirst, lease.path("revision").asLong());
        }
        for (JsonNode lease : second.path("leases")) {
            assertTrue(lease.path("revision").asLong() > lastOfFirst, lease.toString());
        }
        Set<String> all = new HashSet<>(firstKeys);
        all.addAll(leases(walk(client, "cursor-", 1000)).keySet());
        assertEquals(Set.of("cursor-0", "cursor-1", "cursor-2", "cursor-3", "cursor-4"), all);
    }

    @Test
    void releasedRevokedAndExpiredKeysAreNotListed() {
        long released = client.acquire("gone-released", "g", 30_000).path("revision").asLong();
        client.release("gone-released", "g", released);
        client.acquire("gone-revoked", "g", 30_000);
        client.revoke("gone-revoked", "done with it");
        client.acquire("gone-expired", "g", 1_000);
        client.acquire("gone-but-held", "g", 30_000);
        Polling.until(Duration.ofSeconds(10), "gone-expired to expire", () -> client.owner("gone-expired"),
                owner -> !owner.path("held").asBoolean());

        assertEquals(Set.of("gone-but-held"), leases(walk(client, "gone-", 2)).keySet());
    }

    @Test
    void badListAndRevokeRequestsAreInvalidAndChangeNothing() {
        long revision = client.acquire("bad-input", "b", 30_000).path("revision").asLong();
        List<String[]> calls = List.of(
                new String[] {"list", "{\"page_size\":0}"},
                new String[] {"list", "{\"page_size\":1001}"},
                new String[] {"list", "{\"prefix\":\"a.b\"}"},
                new String[] {"list", "{\"cursor\":\"x y\"}"},
                new String[] {"list", "{\"cursor\":\"not-ours\"}"},
                new String[] {"list", "{\"limit\":10}"},
                new String[] {"list", "[]"},
                new String[] {"revoke", "{\"key\":\"bad-input\"}"},
                new String[] {"revoke", "{\"key\":\"bad-input\",\"reason\":\"\"}"},
                new String[] {"revoke", "{\"key\":\"bad-input\",\"reason\":\"two\\nlines\"}"},
                new String[] {"revoke", "{\"key\":\"bad-input\",\"reason\":\"" + "r".repeat(201) + "\"}"},
                new String[] {"revoke", "{\"key\":\"bad-input\",\"reason\":\"r\",\"revision\":0}"},
                new String[] {"revoke", "{\"key\":\"bad.input\",\"reason\":\"r\"}"},
                new String[] {"revoke", "{\"key\":\"bad-input\",\"reason\":\"r\",\"force\":true}"});
        for (String[] call : calls) {
            JsonNode reply = client.call(call[0], call[1]);
            assertEquals("invalid", reply.path("kind").asText(), call[0] + " " + call[1] + ": " + reply);
            assertFalse(reply.path("error").asText().isEmpty(), reply.toString());
        }
        JsonNode owner = client.owner("bad-input");
        assertEquals(revision, owner.path("revision").asLong());
    }

    /** A bucket made elsewhere without allow_direct is listed through leader reads, with the same answers. */
    @Test
    void aBucketWithoutDirectGetsIsListedThroughTheLeader() throws Exception {
        try (NatsServerProcess nats = NatsServerProcess.modern();
                WireClient admin = new WireClient(nats.url())) {
            admin.connection().jetStreamManagement()
                    .addStream(BucketSettingsAcceptanceTest.safeBucket().allowDirect(false).build());
            try (DagnatsServer dagnats = DagnatsServer.start(Settings.forUrl(nats.url()))) {
                assertInstanceOf(BucketStatus.Ready.class, dagnats.status(), dagnats.status().describe());
                Set<String> held = new HashSet<>();
                for (int i = 0; i < 12; i++) {
                    long revision = admin.acquire("leader-" + i, "l", 30_000).path("revision").asLong();
                    if (i % 3 == 0) {
                        admin.release("leader-" + i, "l", revision);
                    } else {
                        held.add("leader-" + i);
                    }
                }

                List<JsonNode> pages = walk(admin, null, 5);

                assertEquals(held, leases(pages).keySet());
                assertTrue(pages.size() >= 3, pages.size() + " pages");
            }
        }
    }

    private static Set<String> keys(JsonNode page) {
        Set<String> keys = new HashSet<>();
        page.path("leases").forEach(lease -> keys.add(lease.path("key").asText()));
        return keys;
    }
}
