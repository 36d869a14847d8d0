package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** api.leases.forward against owners that are plain NATS subscriptions. */
class ForwardAcceptanceTest extends ForwardOwners {

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
}
