package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Owner queries of one key share leader reads (ADR-032), yet an owner query
 * sent after a write was acknowledged always sees that write, however many
 * queries of the key are in flight: a query joins only a read sent after it
 * arrived, never one the leader may have served before the write.
 *
 * <p>On one server this cannot tell that rule from joining the read in flight:
 * the server answers dagnats' read and acknowledges the write in order on one
 * connection, so a read served before the write has been answered before the
 * acknowledgement. In a cluster (leader and dagnats on different servers, or
 * the write through another instance) those paths are not ordered, which is
 * what {@code SharedReadsTest} pins down. This test keeps the end-to-end
 * promise: no answer older than an acknowledged write, with reads shared.
 */
class SharedReadsAcceptanceTest extends SharedServiceTest {

    private static final int IN_FLIGHT = 32;
    private static final int ROUNDS = 100;

    @Test
    void anOwnerQueryAfterAnAcknowledgedWriteSeesItWhileOtherQueriesOfTheKeyAreInFlight() throws Exception {
        String key = "shared-" + UUID.randomUUID();
        String query = WireClient.object().put("key", key).toString();
        AtomicBoolean going = new AtomicBoolean(true);
        AtomicLong answered = new AtomicLong();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        try (WireClient others = new WireClient(service.nats.url())) {
            try {
                rounds(key, others, query, going, answered, failed);
            } finally {
                going.set(false); // before the connection closes under the queries still out
            }
        }
        assertEquals(null, failed.get());
        // Show the queries really were in flight alongside: several per round at least.
        assertTrue(answered.get() > 2L * ROUNDS, "only " + answered.get() + " other queries were answered");
    }

    private static void rounds(String key, WireClient others, String query, AtomicBoolean going, AtomicLong answered,
            AtomicReference<Throwable> failed) {
        // Keeps IN_FLIGHT queries of the key outstanding: a read of it is almost always in flight.
        for (int i = 0; i < IN_FLIGHT; i++) {
            keepAsking(others, query, going, answered, failed);
        }
        for (int round = 0; round < ROUNDS; round++) {
            String holder = "h" + round;
            JsonNode granted = client.acquire(key, holder, 60_000);
            assertTrue(granted.path("granted").asBoolean(), granted.toString());
            long revision = granted.path("revision").asLong();

            JsonNode held = client.owner(key);
            assertEquals(holder, held.path("holder").asText(), "round " + round + ": " + held);
            assertEquals(revision, held.path("revision").asLong(), "round " + round + ": " + held);

            JsonNode released = client.release(key, holder, revision);
            assertTrue(released.path("released").asBoolean(), released.toString());
            JsonNode free = client.owner(key);
            assertFalse(free.path("held").asBoolean(), "round " + round + ": " + free);
        }
    }

    private static void keepAsking(WireClient others, String query, AtomicBoolean going, AtomicLong answered,
            AtomicReference<Throwable> failed) {
        if (!going.get()) {
            return;
        }
        others.callAsync("owner", query).whenComplete((reply, failure) -> {
            if (failure != null) {
                if (going.get()) {
                    failed.compareAndSet(null, failure);
                }
                return;
            }
            answered.incrementAndGet();
            keepAsking(others, query, going, answered, failed);
        });
    }
}
