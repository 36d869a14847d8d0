package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.nats.client.JetStreamManagement;
import io.nats.client.Message;
import io.nats.client.api.Mirror;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
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

    // ---------------------------------------------------------------- listing

    /**
     * Property: a walk lists exactly the held leases, never a released one. Attack: a
     * plain stream mirror of KV_leases (a backup or audit copy, made by an admin). The
     * server gives every mirror of a stream with allow_direct mirror_direct on its own,
     * so the mirror joins the queue group that answers $JS.API.DIRECT.GET.KV_leases and
     * answers some of the listing's batched direct gets with its own history: every
     * revision ever written, since it has no history-1 limit.
     *
     * <p>Fails on 4449e9b: walks list the released key (old revisions from the mirror).
     */
    @Test
    void aMirrorOfTheBucketDoesNotAnswerTheListing() throws Exception {
        try (NatsServerProcess nats = NatsServerProcess.modern();
                DagnatsServer dagnats = DagnatsServer.start(Settings.forUrl(nats.url()));
                WireClient admin = new WireClient(nats.url())) {
            admin.acquire("audited-first", "h", 60_000);
            JetStreamManagement jsm = admin.connection().jetStreamManagement();
            jsm.addStream(StreamConfiguration.builder().name("LEASES_AUDIT").storageType(StorageType.File)
                    .mirror(Mirror.builder().sourceName("KV_leases").build()).build());
            long first = jsm.getStreamInfo("KV_leases").getStreamState().getLastSequence();
            Polling.until(Duration.ofSeconds(10), "the mirror to start",
                    () -> uncheckedLastSequence(jsm, "LEASES_AUDIT"), seq -> seq >= first);
            long gone = admin.acquire("audited-gone", "h", 60_000).path("revision").asLong();
            gone = admin.renew("audited-gone", "h", gone).path("revision").asLong();
            admin.release("audited-gone", "h", gone);
            long held = admin.acquire("audited-held", "h", 60_000).path("revision").asLong();
            long last = jsm.getStreamInfo("KV_leases").getStreamState().getLastSequence();
            Polling.until(Duration.ofSeconds(10), "the mirror to catch up",
                    () -> uncheckedLastSequence(jsm, "LEASES_AUDIT"), seq -> seq >= last);

            List<String> wrong = new ArrayList<>();
            for (int walk = 0; walk < 20; walk++) {
                Map<String, JsonNode> listed = OperatorSubjectsAcceptanceTest.leases(
                        OperatorSubjectsAcceptanceTest.walk(admin, "audited-", 1000));
                listed.remove("audited-first");
                JsonNode heldView = listed.get("audited-held");
                if (listed.size() != 1 || heldView == null || heldView.path("revision").asLong() != held) {
                    wrong.add("walk " + walk + ": " + listed.keySet() + " "
                            + listed.values().stream().map(v -> v.path("revision").asText()).toList());
                }
            }
            assertTrue(wrong.isEmpty(), "walks that listed a released lease or missed the held one: " + wrong);
        }
    }

    /**
     * Property: a walk misses no lease held for the whole walk. Attack: a mirror that
     * keeps only recent messages (max_msgs 1: an audit copy of the last change) answers
     * the first page: its one message is all there is after sequence 1, the batch says
     * nothing is pending, and the walk ends without the lease held throughout. A lagging
     * R3 follower ends a walk early the same way (it stays in the direct-get group once
     * 90 % caught up, nats-server jetstream_cluster.go monitorStream).
     *
     * <p>Fails on 4449e9b: some walks list nothing.
     */
    @Test
    void aMirrorThatLagsOrTrimsCannotEndAWalkEarly() throws Exception {
        try (NatsServerProcess nats = NatsServerProcess.modern();
                DagnatsServer dagnats = DagnatsServer.start(Settings.forUrl(nats.url()));
                WireClient admin = new WireClient(nats.url())) {
            long held = admin.acquire("trimmed-held", "h", 60_000).path("revision").asLong();
            JetStreamManagement jsm = admin.connection().jetStreamManagement();
            jsm.addStream(StreamConfiguration.builder().name("LEASES_LAST").storageType(StorageType.File)
                    .maxMessages(1).mirror(Mirror.builder().sourceName("KV_leases").build()).build());
            for (int i = 0; i < 5; i++) {
                long other = admin.acquire("trimmed-other", "o", 60_000).path("revision").asLong();
                admin.release("trimmed-other", "o", other);
            }
            long last = jsm.getStreamInfo("KV_leases").getStreamState().getLastSequence();
            Polling.until(Duration.ofSeconds(10), "the mirror to catch up",
                    () -> uncheckedLastSequence(jsm, "LEASES_LAST"), seq -> seq >= last);

            List<String> wrong = new ArrayList<>();
            for (int walk = 0; walk < 20; walk++) {
                Map<String, JsonNode> listed = OperatorSubjectsAcceptanceTest.leases(
                        OperatorSubjectsAcceptanceTest.walk(admin, "trimmed-", 1000));
                if (!listed.containsKey("trimmed-held")
                        || listed.get("trimmed-held").path("revision").asLong() != held) {
                    wrong.add("walk " + walk + ": " + listed.keySet());
                }
            }
            assertTrue(wrong.isEmpty(), "walks that missed a lease held throughout: " + wrong);
        }
    }

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
        try (NatsServerProcess nats = NatsServerProcess.modern();
                DagnatsServer dagnats = DagnatsServer.start(Settings.forUrl(nats.url()));
                WireClient admin = new WireClient(nats.url())) {
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
        Path config = Files.createTempFile("nats-small-payload-", ".conf");
        Files.writeString(config, "max_payload: 16384\n");
        try (NatsServerProcess nats = NatsServerProcess.modern("-c", config.toString());
                DagnatsServer dagnats = DagnatsServer.start(Settings.forUrl(nats.url()));
                WireClient admin = new WireClient(nats.url())) {
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
        } finally {
            Files.deleteIfExists(config);
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
                for (int walk = 0; walk < 10; walk++) {
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

    // ---------------------------------------------------------------- revoke

    /**
     * Property: revoke with a revision ends that lease or nothing, also when a renew races it
     * (the compare-and-set retry path re-decides with the precondition). Attack: 150 rounds of
     * a renew and a revoke sent together on the same fence; check each pair of answers
     * against the one order the store chose. Passes on 4449e9b.
     */
    @Test
    void revokeWithARevisionEndsThatLeaseOrNothingWhenARenewRacesIt() throws Exception {
        try (ServiceFixture service = ServiceFixture.start();
                WireClient operator = new WireClient(service.nats.url())) {
            WireClient holder = service.client;
            List<String> broken = new ArrayList<>();
            int revokedFirst = 0;
            int renewedFirst = 0;
            for (int round = 0; round < 150; round++) {
                String key = "race-" + round;
                long fence = holder.acquire(key, "h", 60_000).path("revision").asLong();
                CompletableFuture<JsonNode> renew = holder.callAsync("renew",
                        WireClient.object().put("key", key).put("holder", "h").put("revision", fence).toString());
                CompletableFuture<JsonNode> revoke = operator.callAsync("revoke",
                        WireClient.object().put("key", key).put("reason", "race").put("revision", fence).toString());
                JsonNode renewed = renew.get(10, TimeUnit.SECONDS);
                JsonNode revoked = revoke.get(10, TimeUnit.SECONDS);
                JsonNode owner = holder.owner(key);
                if (revoked.path("revoked").asBoolean()) {
                    revokedFirst++;
                    boolean ok = revoked.path("revoked_revision").asLong() == fence
                            && "lost".equals(renewed.path("kind").asText()) && !owner.path("held").asBoolean();
                    if (!ok) {
                        broken.add(key + ": revoke " + revoked + " renew " + renewed + " owner " + owner);
                    }
                } else {
                    renewedFirst++;
                    long newFence = renewed.path("revision").asLong();
                    boolean ok = renewed.path("granted").asBoolean() && newFence > fence
                            && revoked.path("held").asBoolean() && revoked.path("revision").asLong() == newFence
                            && owner.path("revision").asLong() == newFence;
                    if (!ok) {
                        broken.add(key + ": revoke " + revoked + " renew " + renewed + " owner " + owner);
                    }
                }
            }
            assertTrue(broken.isEmpty(), broken.toString());
            System.out.println("revoke/renew race: revoke won " + revokedFirst + ", renew won " + renewedFirst);
        }
    }

    // ---------------------------------------------------------------- micro responder

    /**
     * Property: every request is answered, and an error reply's micro headers are one
     * ASCII line each whatever the request held. Attack: unknown field names with CR/LF, a
     * would-be header, non-ASCII, and one whose 40-character cut in the error sentence
     * falls inside a surrogate pair (39 ASCII letters and an emoji: valid UTF-8 JSON).
     *
     * <p>Passes on 4449e9b: ServiceErrors.headerValue turns every non-printable or non-ASCII
     * character into '?', and Jackson writes the lone surrogate without failing.
     */
    @Test
    void everyBadFieldNameIsAnsweredWithSafeErrorHeaders() throws Exception {
        try (ServiceFixture service = ServiceFixture.start()) {
            List<String> bodies = List.of(
                    "{\"key\":\"k\",\"a\\r\\nNats-Service-Error-Code: 200\":1}",
                    "{\"key\":\"k\",\"\u043a\u043b\u044e\u0447\":1}",
                    "{\"key\":\"k\",\"" + "a".repeat(39) + "\uD83D\uDE00\":1}");
            List<String> unanswered = new ArrayList<>();
            for (String body : bodies) {
                Message reply;
                try {
                    reply = service.client.connection().request("api.leases.owner",
                            body.getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(3));
                } catch (RuntimeException failed) {
                    reply = null;
                }
                if (reply == null) {
                    unanswered.add(body);
                    continue;
                }
                JsonNode json = WireClient.parse(reply);
                assertEquals("invalid", json.path("kind").asText(), json.toString());
                assertNotNull(reply.getHeaders(), "no micro error headers");
                assertEquals(List.of("400"), reply.getHeaders().get("Nats-Service-Error-Code"));
                String sentence = reply.getHeaders().getFirst("Nats-Service-Error");
                assertTrue(sentence.chars().allMatch(c -> c >= 0x20 && c <= 0x7e), sentence);
                assertEquals(2, reply.getHeaders().keySet().size(), reply.getHeaders().keySet().toString());
            }
            assertTrue(unanswered.isEmpty(), "requests never answered: " + unanswered);
        }
    }

    /**
     * Property: a bad request leaves nothing counted in flight, so a clean stop returns well
     * within the drain bound. Attack: the surrogate-splitting field name above, then a stop
     * (had building its error reply thrown, the request would stay in flight and the stop
     * would wait the whole 10 s drain timeout). Passes on 4449e9b.
     */
    @Test
    void aBadRequestCannotHoldUpTheStop() throws Exception {
        try (NatsServerProcess nats = NatsServerProcess.modern();
                WireClient caller = new WireClient(nats.url())) {
            DagnatsServer dagnats = DagnatsServer.start(Settings.forUrl(nats.url()));
            String body = "{\"key\":\"k\",\"" + "a".repeat(39) + "\uD83D\uDE00\":1}";
            try {
                caller.connection().request("api.leases.owner", body.getBytes(StandardCharsets.UTF_8),
                        Duration.ofSeconds(2));
            } catch (RuntimeException ignored) {
                // answered or not: the stop is what this test measures
            }
            long started = System.nanoTime();
            dagnats.close();
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(millis < 3_000, "the stop took " + millis + " ms with nothing really in flight");
        }
    }

    private static long uncheckedLastSequence(JetStreamManagement jsm, String stream) {
        try {
            return jsm.getStreamInfo(stream).getStreamState().getLastSequence();
        } catch (Exception notYet) {
            return -1;
        }
    }
}
