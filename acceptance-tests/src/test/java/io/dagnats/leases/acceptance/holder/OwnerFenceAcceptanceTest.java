package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The owner-side fence rule through a real owner: a request sent straight to an
 * in-process {@link LeaseHolder}'s inbox, as dagnats would send a forward, is
 * processed only with a fence at or above the holder's tenure start; a fence
 * from before the tenure, a malformed one or none is answered with an empty
 * body and {@code Dagnats-Lease-Reject: stale}, and the handler never sees it.
 */
class OwnerFenceAcceptanceTest {

    private static final String KEY = "fenced-key";

    private ServiceFixture service;
    private WireClient client;
    private Connection ownerConnection;
    private LeaseHolder holder;
    private KeptLease lease;
    private final List<String> handled = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        service = ServiceFixture.start();
        client = service.client;
        ownerConnection = Nats.connect(service.nats.url());
        holder = LeaseHolder.builder(ownerConnection).holderPrefix("fenced")
                .forwardHandler((tenure, payload) -> {
                    String seen = "handled@" + tenure.start() + ":" + new String(payload, StandardCharsets.UTF_8);
                    handled.add(seen);
                    return seen.getBytes(StandardCharsets.UTF_8);
                })
                .build();
    }

    @AfterEach
    void stop() throws Exception {
        try {
            if (holder != null) {
                holder.close();
            }
            if (ownerConnection != null) {
                ownerConnection.close();
            }
        } finally {
            if (service != null) {
                service.close();
            }
        }
    }

    /** The holder owns {@link #KEY} in a tenure that began after an earlier holder's, and returns its start. */
    private long ownAfterAnEarlierTenure() {
        long earlier = client.acquire(KEY, "earlier-holder", 15_000).path("revision").asLong();
        client.release(KEY, "earlier-holder", earlier);
        lease = holder.keep(KEY, Duration.ofSeconds(15), OwnershipListener.NONE);
        Polling.until(Duration.ofSeconds(10), "the holder to own the key", lease::isOwner, owner -> owner);
        long start = lease.tenure().orElseThrow().start().revision();
        assertTrue(start > earlier, "the tenure began at " + start + ", not after the earlier one at " + earlier);
        return start;
    }

    private Message sendToInbox(String fenceHeader, String body) throws Exception {
        Headers headers = new Headers();
        if (fenceHeader != null) {
            headers.put("Dagnats-Lease-Fence", fenceHeader);
        }
        Message reply = client.connection().request(NatsMessage.builder()
                // Where dagnats sends it: the inbox of the incarnation the lease was taken under.
                .subject("dagnats.lease.incarnation." + holder.id().value() + "." + holder.incarnation().value() + "." + KEY)
                .headers(headers)
                .data(body.getBytes(StandardCharsets.UTF_8))
                .build(), Duration.ofSeconds(5));
        assertNotNull(reply, "the owner did not answer a request fenced [" + fenceHeader + "] within 5 s");
        return reply;
    }

    private static void assertRejectedStale(Message reply, String what) {
        assertEquals("stale", reply.getHeaders() == null ? null : reply.getHeaders().getFirst("Dagnats-Lease-Reject"),
                what);
        assertEquals(0, reply.getData() == null ? 0 : reply.getData().length, what + ": a reject has an empty body");
    }

    @Test
    void aRequestFencedBelowTheTenureStartIsRejectedStaleAndNotHandled() throws Exception {
        long start = ownAfterAnEarlierTenure();

        Message stale = sendToInbox(Long.toString(start - 1), "stale");
        Message oldest = sendToInbox("1", "oldest");
        Message atStart = sendToInbox(Long.toString(start), "at-start");

        assertRejectedStale(stale, "fence " + (start - 1) + " below the tenure start " + start);
        assertRejectedStale(oldest, "fence 1 below the tenure start " + start);
        assertNull(atStart.getHeaders() == null ? null : atStart.getHeaders().getFirst("Dagnats-Lease-Reject"),
                "a fence at the tenure start must be accepted");
        assertEquals("handled@" + start + ":at-start", new String(atStart.getData(), StandardCharsets.UTF_8));
        assertEquals(List.of("handled@" + start + ":at-start"), handled);
    }

    @Test
    void aRequestWithAMalformedOrMissingFenceIsRejectedStaleAndNotHandled() throws Exception {
        long start = ownAfterAnEarlierTenure();

        // No leading or trailing spaces here: a NATS header value is trimmed on the way.
        List<String> malformed = List.of("garbage", "-" + start, "+" + start, start + "x", start + ".0",
                "18446744073709551616", "000000000000000000000" + start);
        for (String fence : malformed) {
            assertRejectedStale(sendToInbox(fence, "malformed"), "fence header [" + fence + "]");
        }
        assertRejectedStale(sendToInbox(null, "missing"), "no fence header");

        // The same inbox still serves a well-formed fence: the rejects above were not blindness.
        Message wellFormed = sendToInbox(Long.toString(start), "well-formed");
        assertEquals("handled@" + start + ":well-formed", new String(wellFormed.getData(), StandardCharsets.UTF_8));
        assertEquals(List.of("handled@" + start + ":well-formed"), handled);
    }
}
