package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.MessageHandler;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** api.leases.forward against owners that are plain NATS subscriptions. */
class ForwardAcceptanceTest extends SharedServiceTest {

    private static WireClient owners;
    private final List<Dispatcher> dispatchers = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startOwners() {
        owners = new WireClient(service.nats.url());
    }

    @AfterAll
    static void stopOwners() throws InterruptedException {
        owners.close();
    }

    @AfterEach
    void unsubscribeOwners() {
        dispatchers.forEach(dispatcher -> owners.connection().closeDispatcher(dispatcher));
    }

    private static String key() {
        return "fwd-" + UUID.randomUUID();
    }

    private List<Message> serve(String holder, MessageHandler handler) throws Exception {
        List<Message> seen = new CopyOnWriteArrayList<>();
        Dispatcher dispatcher = owners.connection().createDispatcher(message -> {
            seen.add(message);
            handler.onMessage(message);
        });
        dispatcher.subscribe("dagnats.lease.inbox." + holder + ".>");
        dispatchers.add(dispatcher);
        owners.connection().flush(Duration.ofSeconds(5));
        return seen;
    }

    private static void reply(Message request, byte[] body) {
        owners.connection().publish(request.getReplyTo(), body);
    }

    private static JsonNode forward(String key, byte[] payload, long timeoutMillis) {
        return client.call("forward", WireClient.object().put("key", key)
                .put("payload", Base64.getEncoder().encodeToString(payload)).put("timeout_ms", timeoutMillis));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aRoundTripCarriesTheFenceAndTheOwnersReply() throws Exception {
        String key = key();
        long revision = client.acquire(key, "alice", 15_000).path("revision").asLong();
        List<Message> seen = serve("alice", request ->
                reply(request, utf8("pong:" + new String(request.getData(), StandardCharsets.UTF_8))));

        JsonNode reply = forward(key, utf8("ping"), 5_000);

        assertEquals(key, reply.path("key").asText(), reply.toString());
        assertEquals("alice", reply.path("holder").asText());
        assertEquals(revision, reply.path("revision").asLong());
        assertEquals("pong:ping", new String(Base64.getDecoder().decode(reply.path("payload").asText()), StandardCharsets.UTF_8));
        assertEquals(1, seen.size());
        assertEquals("dagnats.lease.inbox.alice." + key, seen.get(0).getSubject());
        assertEquals(Long.toString(revision), seen.get(0).getHeaders().getFirst("Dagnats-Lease-Fence"));
    }

    @Test
    void aRenewedLeaseIsForwardedUnderItsNewRevision() throws Exception {
        String key = key();
        long acquired = client.acquire(key, "alice", 15_000).path("revision").asLong();
        long renewed = client.renew(key, "alice", acquired).path("revision").asLong();
        List<Message> seen = serve("alice", request -> reply(request, new byte[0]));

        JsonNode reply = forward(key, new byte[0], 5_000);

        assertEquals(renewed, reply.path("revision").asLong(), reply.toString());
        assertEquals("", reply.path("payload").asText());
        assertEquals(Long.toString(renewed), seen.get(0).getHeaders().getFirst("Dagnats-Lease-Fence"));
    }

    @Test
    void ownerHeadersAreNotRelayed() throws Exception {
        String key = key();
        client.acquire(key, "alice", 15_000);
        serve("alice", request -> {
            Headers headers = new Headers();
            headers.put("X-Secret", "owner-only");
            owners.connection().publish(NatsMessage.builder().subject(request.getReplyTo()).headers(headers)
                    .data(utf8("ok")).build());
        });

        Message raw = client.connection().request("api.leases.forward",
                utf8("{\"key\":\"" + key + "\",\"payload\":\"\"}"), Duration.ofSeconds(5));

        assertTrue(raw.getHeaders() == null || raw.getHeaders().getFirst("X-Secret") == null);
        assertEquals("ok", new String(Base64.getDecoder().decode(WireClient.parse(raw).path("payload").asText()),
                StandardCharsets.UTF_8));
    }

    @Test
    void aFreeKeyHasNoOwner() {
        JsonNode reply = forward(key(), utf8("x"), 5_000);

        assertEquals("no_owner", reply.path("kind").asText(), reply.toString());
    }

    @Test
    void anOwnerWithNoSubscriberIsUnavailablePromptlyAndNamed() {
        String key = key();
        long revision = client.acquire(key, "ghost", 15_000).path("revision").asLong();

        long started = System.nanoTime();
        JsonNode reply = forward(key, utf8("x"), 10_000);
        long elapsedMillis = (System.nanoTime() - started) / 1_000_000;

        assertEquals("owner_unavailable", reply.path("kind").asText(), reply.toString());
        assertEquals("ghost", reply.path("holder").asText());
        assertEquals(revision, reply.path("revision").asLong());
        assertTrue(elapsedMillis < 5_000, "owner_unavailable took " + elapsedMillis + " ms of a 10 s timeout");
    }

    @Test
    void anOwnerThatRejectsIsTriedAtMostOnceWhileItsLeaseIsUnchanged() throws Exception {
        String key = key();
        long revision = client.acquire(key, "alice", 15_000).path("revision").asLong();
        List<Message> seen = serve("alice", ForwardAcceptanceTest::reject);

        JsonNode reply = forward(key, utf8("x"), 5_000);

        assertEquals("owner_rejected", reply.path("kind").asText(), reply.toString());
        assertEquals("alice", reply.path("holder").asText());
        assertEquals(revision, reply.path("revision").asLong());
        assertTrue(seen.size() >= 1 && seen.size() <= 3, "attempts: " + seen.size());
    }

    @Test
    void aSlowOwnerTimesOutWithinTimeoutAndSeesExactlyOneRequest() throws Exception {
        String key = key();
        client.acquire(key, "sloth", 15_000);
        List<Message> seen = serve("sloth", request -> { });

        long started = System.nanoTime();
        JsonNode reply = forward(key, utf8("x"), 300);
        long elapsedMillis = (System.nanoTime() - started) / 1_000_000;

        assertEquals("owner_timeout", reply.path("kind").asText(), reply.toString());
        assertEquals("sloth", reply.path("holder").asText());
        assertTrue(elapsedMillis >= 300, "answered before the timeout: " + elapsedMillis + " ms");
        assertTrue(elapsedMillis < 3_000, "owner_timeout took " + elapsedMillis + " ms for a 300 ms timeout");
        owners.connection().flush(Duration.ofSeconds(5));
        assertEquals(1, seen.size());
    }

    @Test
    void aSlowOwnerDoesNotHoldUpOtherRequests() throws Exception {
        String key = key();
        client.acquire(key, "sloth", 15_000);
        serve("sloth", request -> { });
        var slow = client.callAsync("forward", "{\"key\":\"" + key + "\",\"payload\":\"\",\"timeout_ms\":2000}");

        JsonNode owner = client.owner(key);

        assertEquals("sloth", owner.path("holder").asText());
        assertFalse(slow.isDone(), "the slow forward should still be waiting on its owner");
    }

    @Test
    void aRejectDuringAHandoverIsRetriedOnTheNewOwner() throws Exception {
        String key = key();
        long alices = client.acquire(key, "alice", 15_000).path("revision").asLong();
        long[] bobs = new long[1];
        List<Message> aliceSaw = serve("alice", request -> {
            client.release(key, "alice", alices);
            bobs[0] = client.acquire(key, "bob", 15_000).path("revision").asLong();
            reject(request);
        });
        List<Message> bobSaw = serve("bob", request -> reply(request, utf8("bob here")));

        JsonNode reply = forward(key, utf8("x"), 5_000);

        assertEquals("bob", reply.path("holder").asText(), reply.toString());
        assertEquals(bobs[0], reply.path("revision").asLong());
        assertEquals(1, aliceSaw.size());
        assertEquals(1, bobSaw.size());
        assertEquals(Long.toString(bobs[0]), bobSaw.get(0).getHeaders().getFirst("Dagnats-Lease-Fence"));
    }

    @Test
    void a600KbReplyPassesAndA900KbReplyIsTooLarge() throws Exception {
        String key = key();
        long revision = client.acquire(key, "big", 15_000).path("revision").asLong();
        serve("big", request -> reply(request, new byte[Integer.parseInt(new String(request.getData(),
                StandardCharsets.UTF_8))]));

        JsonNode fits = forward(key, utf8(Integer.toString(600 * 1024)), 5_000);
        assertEquals(600 * 1024, Base64.getDecoder().decode(fits.path("payload").asText()).length,
                fits.path("kind").asText() + " " + fits.path("error").asText());

        JsonNode tooLarge = forward(key, utf8(Integer.toString(900 * 1024)), 5_000);
        assertEquals("reply_too_large", tooLarge.path("kind").asText(), tooLarge.toString());
        assertEquals("big", tooLarge.path("holder").asText());
        assertEquals(revision, tooLarge.path("revision").asLong());
    }

    @Test
    void invalidForwardsAreInvalid() {
        String key = key();
        for (String body : List.of(
                "{\"key\":\"" + key + "\"}",
                "{\"key\":\"" + key + "\",\"payload\":\"not base64!\"}",
                "{\"key\":\"" + key + "\",\"payload\":5}",
                "{\"key\":\"" + key + "\",\"payload\":\"\",\"timeout_ms\":99}",
                "{\"key\":\"" + key + "\",\"payload\":\"\",\"timeout_ms\":30001}",
                "{\"key\":\"" + key + "\",\"payload\":\"\",\"timeout_ms\":\"5000\"}",
                "{\"payload\":\"\"}")) {
            JsonNode reply = client.call("forward", body);
            assertEquals("invalid", reply.path("kind").asText(), body + " -> " + reply);
        }
    }

    private static void reject(Message request) {
        Headers headers = new Headers();
        headers.put("Dagnats-Lease-Reject", "stale");
        Connection connection = owners.connection();
        connection.publish(NatsMessage.builder().subject(request.getReplyTo()).headers(headers).data(new byte[0]).build());
    }
}
