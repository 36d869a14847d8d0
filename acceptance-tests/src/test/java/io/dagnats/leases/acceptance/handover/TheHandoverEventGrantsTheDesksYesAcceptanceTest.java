package io.dagnats.leases.acceptance.handover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.internal.candidacy.CandidateDesk;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.LeaseView;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * From the review of ADR-047, on a real nats-server and dagnats: the {@code handed-over} event as the
 * server republishes it, read as the holder library reads it, grants the yes the holder library's
 * real candidacy desk said, with the handover's own TTL (here 7 s, not the lease's 30 s), before
 * dagnats' grant, which then grants nothing more. dagnats' grant is held back deterministically: right
 * before the yes leaves, the desk's own dispatcher is handed a candidates request whose answer blocks
 * until the event was heard, so the grant, which dagnats sends only after the yes, queues behind it.
 * This pins the forms the holder reads ({@code Nats-TTL}, {@code Dagnats-Lease-Check}) to what the
 * server really sends: were either unreadable, the event would silently grant nothing.
 */
class TheHandoverEventGrantsTheDesksYesAcceptanceTest extends SharedServiceTest {

    private static final String KEY = "event-grants";

    private final List<String> granted = new CopyOnWriteArrayList<>();
    private final CountDownLatch eventHeard = new CountDownLatch(1);
    private volatile boolean checked;

    @Test
    void theRealHandoverEventGrantsTheDesksYesWithTheHandoversTtlAndTheGrantAfterItNothing() throws Exception {
        Connection connection = client.connection();
        Subscription events = connection.subscribe(LeaseSubjects.changed(new LeaseKey(KEY)));
        Subscription checks = connection.subscribe(LeaseSubjects.candidate(new HolderId("h2"), new LeaseKey(KEY)));
        connection.flush(Duration.ofSeconds(5));
        long revision = client.call("acquire", WireClient.object().put("key", KEY).put("holder", "h1")
                .put("incarnation", "i1").put("ttl_ms", 30_000)).path("revision").asLong();
        assertNotNull(events.nextMessage(Duration.ofSeconds(5)), "no acquired event");
        CandidateDesk desk = new CandidateDesk(connection, Claimant.of(new HolderId("h2"), new Incarnation("i2")),
                System::nanoTime);
        desk.stand(new LeaseKey(KEY), new KeepOptions.Priority(0, "1.0"), seat(connection));
        try {
            handOverAndHearTheEvent(desk, events, revision);
        } finally {
            eventHeard.countDown();
        }
        try {
            grantIsSpentAlready(connection, checks);
        } finally {
            desk.close();
        }
    }

    private void handOverAndHearTheEvent(CandidateDesk desk, Subscription events, long revision) throws Exception {
        JsonNode handed = client.call("handover", WireClient.object().put("key", KEY).put("holder", "h1")
                .put("incarnation", "i1").put("revision", revision).put("to_holder", "h2")
                .put("to_incarnation", "i2").put("ttl_ms", 7_000));
        assertTrue(handed.path("handed_over").asBoolean(), handed.toString());
        Message event = events.nextMessage(Duration.ofSeconds(5));
        assertNotNull(event, "no handed-over event");
        LeaseChange change = LeaseChange.read(event.getSubject(), event.getHeaders()::getFirst, Instant.now())
                .orElseThrow();
        assertEquals(List.of(), granted, "dagnats' grant is held behind the blocked answer");

        desk.heard(change);

        assertEquals(List.of(handed.path("revision").asText() + " ttl 7000"), granted, "the event grants the yes");
    }

    private void grantIsSpentAlready(Connection connection, Subscription checks) throws Exception {
        // dagnats' grant of the same yes, seen on this connection, is queued to the desk's dispatcher; a
        // candidates request sent after it is answered only once the desk has handled the grant.
        Message grant = Polling.until(Duration.ofSeconds(5), "dagnats' grant", () -> next(checks),
                message -> message != null && message.getReplyTo() == null);
        assertNotNull(grant.getHeaders().getFirst(io.dagnats.leases.protocol.LeaseHeaders.CHECK));
        assertNotNull(connection.request(LeaseSubjects.candidates(new LeaseKey(KEY)),
                ("{\"key\":\"" + KEY + "\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8), Duration.ofSeconds(5)),
                "the desk answered after the grant");
        assertEquals(1, granted.size(), "one yes, one grant: " + granted);
    }

    private static Message next(Subscription checks) {
        try {
            return checks.nextMessage(Duration.ofMillis(100));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private CandidateDesk.Seat seat(Connection connection) {
        return new CandidateDesk.Seat() {
            @Override
            public boolean waiting() {
                if (!checked) {
                    // Asked by dagnats' check, before the yes leaves: a candidates request, at the server
                    // before the yes is sent, queues on the desk's dispatcher ahead of dagnats' grant.
                    checked = true;
                    connection.publish(LeaseSubjects.candidates(new LeaseKey(KEY)), "_INBOX.ignored",
                            ("{\"key\":\"" + KEY + "\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    try {
                        connection.flush(Duration.ofSeconds(5));
                    } catch (Exception notFlushed) {
                        throw new IllegalStateException(notFlushed);
                    }
                } else {
                    await(); // that request's answer: the grant waits behind it until the event was heard
                }
                return true;
            }

            @Override
            public boolean owner() {
                return false;
            }

            @Override
            public void expecting(boolean granting) {
            }

            @Override
            public void granted(LeaseView lease, long saidAt) {
                granted.add(lease.revision().revision() + " ttl " + lease.ttl().millis());
            }
        };
    }

    private void await() {
        try {
            eventHeard.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
