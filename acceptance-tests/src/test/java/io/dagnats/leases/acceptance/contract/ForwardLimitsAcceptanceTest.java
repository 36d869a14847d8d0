package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nats.client.Message;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The limits of api.leases.forward: a slow owner times out within its timeout and holds up no
 * other request, a 600 KB reply passes and a 900 KB one is too large, invalid forwards are invalid.
 */
class ForwardLimitsAcceptanceTest extends ForwardOwners {

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
}
