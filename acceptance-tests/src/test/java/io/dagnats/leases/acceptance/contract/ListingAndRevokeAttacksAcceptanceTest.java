package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Jepsen-style attacks on issue 11's operator subjects (list, revoke) and the micro
 * responder, from the review of issue 11. Each test states the property it attacks and
 * whether it failed when reviewed (4449e9b).
 */
class ListingAndRevokeAttacksAcceptanceTest {

    /**
     * Property: one stored record dagnats cannot read does not stop an operator listing
     * the rest. Attack: an admin's KV put of a non-lease value ({@code nats kv put leases
     * junk x}) early in the stream. Every page that reaches it answers {@code internal}
     * and gives no cursor, so no walk gets past it to the leases after it.
     *
     * <p>Fails on 4449e9b: the walk answers internal; the lease after the junk is never listed,
     * and the owner of the junk key answers Jackson's two-line message.
     */
    @Test
    void oneUnreadableRecordDoesNotBlockTheWholeListing() throws Exception {
        try (ServiceFixture service = ServiceFixture.start()) {
            WireClient admin = service.client;
            admin.connection().jetStream().publish("$KV.leases.junk", "not a lease".getBytes(StandardCharsets.UTF_8));
            admin.acquire("after-junk", "h", 60_000);

            JsonNode page = admin.call("list", "{\"page_size\":1000}");
            Map<String, JsonNode> walked = OperatorSubjectsAcceptanceTest.leases(
                    OperatorSubjectsAcceptanceTest.walk(admin, null, 1));

            assertFalse(page.has("kind"), "the listing failed: " + page);
            assertEquals(Set.of("after-junk"), OperatorSubjectsAcceptanceTest.leases(List.of(page)).keySet(), page.toString());
            assertEquals(Set.of("after-junk"), walked.keySet(), "a walk in pages of one: " + walked.keySet());
            JsonNode owner = admin.owner("junk");
            assertEquals("internal", owner.path("kind").asText(), owner.toString());
            String sentence = owner.path("error").asText();
            assertFalse(sentence.contains("\n") || sentence.contains("Source"), "not one line of ours: " + sentence);
        }
    }

    /**
     * Property: the page cut for max_payload loses no lease. Attack: max_payload 16 KB and
     * 120 leases with 128-character keys and holders, listed in pages of 1000: every page is
     * cut, and the walk goes on from each cut's cursor. Passes on 4449e9b.
     */
    @Test
    void pagesCutForMaxPayloadLoseNoLease() throws Exception {
        try (ServiceFixture service = ServiceFixture.with().serverConfig("max_payload: 16384\n").start()) {
            WireClient admin = service.client;
            Set<String> held = new HashSet<>();
            for (int i = 0; i < 120; i++) {
                String key = "cut-" + String.format("%03d", i) + "-" + "k".repeat(120);
                String holder = "h".repeat(124) + String.format("%04d", i);
                assertTrue(admin.acquire(key, holder, 60_000).path("granted").asBoolean());
                held.add(key);
            }
            List<JsonNode> pages = OperatorSubjectsAcceptanceTest.walk(admin, "cut-", 1000);
            assertTrue(pages.size() > 3, pages.size() + " pages");
            assertEquals(held, OperatorSubjectsAcceptanceTest.leases(pages).keySet());
        }
    }

    /**
     * Property: a walk lists every lease held for the whole walk, while those leases are
     * renewed (each renew moves the key's one message past the cursor). Attack: 150 leases
     * renewed round-robin by a second caller, walked ten times in pages of 7. Passes on
     * 4449e9b on one server.
     */
    @Test
    void aWalkDuringRenewalsListsEveryLeaseHeldThroughout() throws Exception {
        try (ServiceFixture service = ServiceFixture.start();
                WireClient renewer = new WireClient(service.nats.url())) {
            Map<String, Long> fences = new ConcurrentHashMap<>();
            for (int i = 0; i < 150; i++) {
                String key = "churn-" + i;
                fences.put(key, service.client.acquire(key, "h", 60_000).path("revision").asLong());
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger renewals = new AtomicInteger();
            Thread churn = new Thread(() -> {
                while (!stop.get()) {
                    for (Map.Entry<String, Long> lease : fences.entrySet()) {
                        if (stop.get()) {
                            return;
                        }
                        JsonNode renewed = renewer.renew(lease.getKey(), "h", lease.getValue());
                        lease.setValue(renewed.path("revision").asLong());
                        renewals.incrementAndGet();
                    }
                }
            });
            churn.start();
            List<String> missed = new ArrayList<>();
            try {
                // Ten walks at least, and until the churn has renewed every lease once (a loaded machine renews slowly).
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                for (int walk = 0; walk < 10 || (renewals.get() <= 150 && System.nanoTime() < deadline); walk++) {
                    Set<String> listed = OperatorSubjectsAcceptanceTest.leases(
                            OperatorSubjectsAcceptanceTest.walk(service.client, "churn-", 7)).keySet();
                    if (!listed.equals(fences.keySet())) {
                        Set<String> lost = new TreeSet<>(fences.keySet());
                        lost.removeAll(listed);
                        missed.add("walk " + walk + " missed " + lost);
                    }
                }
            } finally {
                stop.set(true);
                churn.join(10_000);
            }
            assertTrue(renewals.get() > 150, renewals.get() + " renewals during the walks");
            assertTrue(missed.isEmpty(), missed.toString());
        }
    }
}
