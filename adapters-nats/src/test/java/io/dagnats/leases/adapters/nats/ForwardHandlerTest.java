package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dagnats.leases.application.ForwardToOwner.Outcome;
import io.dagnats.leases.application.LeaseTelemetry.Facts;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What each forward outcome is answered with, and what it tells telemetry. */
class ForwardHandlerTest {

    private static final Lease OWNER = new Lease(new LeaseKey("k"), new HolderId("h1"), new Fence(7), new Fence(7),
            Instant.EPOCH, Instant.EPOCH, new LeaseTtl(10_000));

    private static JsonNode json(Answer answer) throws IOException {
        return new ObjectMapper().readTree(answer.body());
    }

    @Test
    void aDeliveredReplyNamesTheOwner() throws IOException {
        Answer answer = ForwardHandler.answer(new Outcome.Delivered(OWNER, new byte[] {1, 2, 3}), () -> 1024);

        assertEquals("h1", json(answer).path("holder").asText(), json(answer).toString());
        assertEquals(Facts.Answered.of(Facts.Result.DELIVERED, OWNER), answer.facts());
    }

    @Test
    void aReplyOverMaxPayloadIsRefusedSayingBothSizes() throws IOException {
        Answer answer = ForwardHandler.answer(new Outcome.Delivered(OWNER, new byte[600]), () -> 512);

        JsonNode reply = json(answer);
        assertEquals("reply_too_large", reply.path("kind").asText(), reply.toString());
        assertTrue(reply.path("error").asText().contains("600 bytes"), reply.toString());
        assertTrue(reply.path("error").asText().contains("max_payload of 512"), reply.toString());
        assertEquals(new Facts.Failed(ErrorKind.REPLY_TOO_LARGE, Optional.of(OWNER.key()), Optional.of(OWNER)),
                answer.facts());
    }

    @Test
    void noOwnerNamesTheKeyAndNoLease() throws IOException {
        Answer answer = ForwardHandler.answer(new Outcome.NoOwner(OWNER.key()), () -> {
            throw new AssertionError("nothing to measure");
        });

        assertEquals("no_owner", json(answer).path("kind").asText());
        assertEquals(new Facts.Failed(ErrorKind.NO_OWNER, Optional.of(OWNER.key()), Optional.empty()),
                answer.facts());
    }

    @Test
    void eachWayTheOwnerFailsIsItsKindAndNamesTheLeaseLastTried() throws IOException {
        Object[][] table = {
                {new Outcome.OwnerUnavailable(OWNER), ErrorKind.OWNER_UNAVAILABLE, "owner_unavailable"},
                {new Outcome.OwnerRejected(OWNER), ErrorKind.OWNER_REJECTED, "owner_rejected"},
                {new Outcome.OwnerTimeout(OWNER), ErrorKind.OWNER_TIMEOUT, "owner_timeout"},
        };
        for (Object[] row : table) {
            Answer answer = ForwardHandler.answer((Outcome) row[0], () -> 1024);

            JsonNode reply = json(answer);
            assertEquals(row[2], reply.path("kind").asText(), reply.toString());
            assertTrue(reply.path("error").asText().contains("h1"), reply.toString());
            assertEquals(new Facts.Failed((ErrorKind) row[1], Optional.of(OWNER.key()), Optional.of(OWNER)),
                    answer.facts());
        }
    }
}
