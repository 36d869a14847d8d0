package io.dagnats.leases.acceptance.handover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code api.leases.handover} against a real nats-server and dagnats (ADR-042), the successor played
 * by a plain subscription: one fenced write to a live waiting candidate, and nothing at all written
 * when the successor is not there, is another incarnation, or the caller is not the owner at the
 * revision it sent.
 */
class HandoverAcceptanceTest extends SharedServiceTest {

    @Test
    void aHandoverToAWaitingCandidateIsOneWriteAtAHigherFenceThatTheSuccessorRenewsAndTheOldOwnerLoses()
            throws Exception {
        Subscription events = client.connection().subscribe("dagnats.lease.changed.handed");
        client.connection().flush(Duration.ofSeconds(5));
        long revision = acquire("handed", "h1", "i1").path("revision").asLong();
        try (PlayedCandidate successor = new PlayedCandidate(client.connection(), "handed", "h2", "i2")) {

            JsonNode handed = client.call("handover", handover("handed", "h1", "i1", revision, "h2", "i2"));

            assertTrue(handed.path("handed_over").asBoolean(), handed.toString());
            long handedAt = handed.path("revision").asLong();
            assertTrue(handedAt > revision, handed.toString());
            assertEquals("h2", handed.path("holder").asText());
            assertEquals("i2", handed.path("incarnation").asText());
            assertEquals(handedAt, handed.path("tenure").asLong(), "the successor's tenure begins at the handover");
            assertEquals(30_000, handed.path("ttl_ms").asLong(), "the lease's TTL is kept");
            assertEquals(1, successor.checks());
        }
        next(events, revision);
        Message event = events.nextMessage(Duration.ofSeconds(5));
        assertNotNull(event, "no handed-over event");
        assertEquals("handed-over", event.getHeaders().getFirst("Dagnats-Lease-Event"));
        assertEquals("h1", event.getHeaders().getFirst("Dagnats-Lease-From"));
        assertEquals("h2", event.getHeaders().getFirst("Dagnats-Lease-Holder"));
        assertEquals("i2", event.getHeaders().getFirst("Dagnats-Lease-Incarnation"));
        // One record: the handover's own message follows the old owner's directly.
        assertEquals(Long.toString(revision), event.getHeaders().getFirst("Nats-Last-Sequence"));
        long handedAt = Long.parseLong(event.getHeaders().getFirst("Nats-Sequence"));

        JsonNode oldOwner = renew("handed", "h1", "i1", revision);
        assertEquals("lost", oldOwner.path("kind").asText(), oldOwner.toString());
        JsonNode successor = renew("handed", "h2", "i2", handedAt);
        assertTrue(successor.path("granted").asBoolean(), successor.toString());
        assertTrue(successor.path("revision").asLong() > handedAt, successor.toString());
        assertEquals(handedAt, successor.path("tenure").asLong(), "the successor's renew continues its own tenure");
    }

    @Test
    void theSuccessorIsGrantedTheWrittenLeaseInAnswerToItsYes() throws Exception {
        long revision = acquire("granted", "h1", "i1").path("revision").asLong();
        try (PlayedCandidate successor = new PlayedCandidate(client.connection(), "granted", "h2", "i2")) {

            JsonNode handed = client.call("handover", handover("granted", "h1", "i1", revision, "h2", "i2"));

            assertTrue(handed.path("handed_over").asBoolean(), handed.toString());
            String check = successor.nextYes(Duration.ofSeconds(5));
            assertNotNull(check, "the successor said yes to no check");
            assertTrue(check.length() >= 16, "a check id nobody can guess: " + check);
            Message grant = successor.nextGrant(Duration.ofSeconds(5));
            assertNotNull(grant, "no grant of the successor's yes (ADR-046)");
            assertEquals(check, grant.getHeaders().getFirst(LeaseHeaders.CHECK));
            JsonNode granted = WireClient.json(new String(grant.getData(), java.nio.charset.StandardCharsets.UTF_8));
            assertEquals(handed, granted, "the grant is the handover's reply");
            assertEquals(null, successor.nextGrant(Duration.ofMillis(200)), "one grant per handover");
        }
    }

    /** ADR-047: the server republishes the write as it lands, naming the yes it answers, before dagnats' grant. */
    @Test
    void theHandoverEventNamesTheCheckTheSuccessorSaidYesTo() throws Exception {
        Subscription events = client.connection().subscribe(LeaseSubjects.CHANGED_PREFIX + "event-named");
        client.connection().flush(Duration.ofSeconds(5));
        long revision = acquire("event-named", "h1", "i1").path("revision").asLong();
        next(events, revision);
        JsonNode handed;
        try (PlayedCandidate successor = new PlayedCandidate(client.connection(), "event-named", "h2", "i2")) {

            handed = client.call("handover", handover("event-named", "h1", "i1", revision, "h2", "i2"));

            assertTrue(handed.path("handed_over").asBoolean(), handed.toString());
            String check = successor.nextYes(Duration.ofSeconds(5));
            assertNotNull(check, "the successor said yes to no check");
            Message event = events.nextMessage(Duration.ofSeconds(5));
            assertNotNull(event, "no handed-over event");
            assertEquals(handed.path("revision").asText(), event.getHeaders().getFirst("Nats-Sequence"));
            assertEquals(check, event.getHeaders().getFirst(LeaseHeaders.CHECK), "the event names the yes it answers");
        }
        JsonNode renewed = renew("event-named", "h2", "i2", handed.path("revision").asLong());
        assertTrue(renewed.path("granted").asBoolean(), renewed.toString());
        Message renewal = events.nextMessage(Duration.ofSeconds(5));
        assertNotNull(renewal, "no renewed event");
        assertEquals(null, renewal.getHeaders().getFirst(LeaseHeaders.CHECK), "only the handover answers the yes");
    }

    @Test
    void aYesWhoseHandoverLostItsCompareAndSetIsGrantedNothing() throws Exception {
        long revision = acquire("not-granted", "h1", "i1").path("revision").asLong();
        try (PlayedCandidate successor = new PlayedCandidate(client.connection(), "not-granted", "h2", "i2")) {
            // The owner's renew lands between the check and the handover's write.
            successor.beforeYes(() -> renew("not-granted", "h1", "i1", revision));

            JsonNode reply = client.call("handover", handover("not-granted", "h1", "i1", revision, "h2", "i2"));

            assertEquals("lost", reply.path("kind").asText(), reply.toString());
            assertNotNull(successor.nextYes(Duration.ofSeconds(5)), "the successor was asked and said yes");
            assertEquals(null, successor.nextGrant(Duration.ofMillis(500)), "nothing written, nothing granted");
        }
    }

    @Test
    void aHandoverToNobodyIsNoSuccessorAndTheOwnerRenewsAtItsRevision() {
        long revision = acquire("to-nobody", "h1", "i1").path("revision").asLong();

        JsonNode reply = client.call("handover", handover("to-nobody", "h1", "i1", revision, "gone", "i9"));

        assertEquals("no_successor", reply.path("kind").asText(), reply.toString());
        assertTrue(reply.path("error").asText().contains("no responders"), reply.toString());
        assertUnchanged("to-nobody", "h1", revision);
        JsonNode renewed = renew("to-nobody", "h1", "i1", revision);
        assertTrue(renewed.path("granted").asBoolean(), "the owner keeps the lease: " + renewed);
    }

    @Test
    void aHandoverToAnotherIncarnationOfTheSuccessorIsNoSuccessor() throws Exception {
        assertRefusedWritingNothing("other-incarnation", "h1", "i1", "i3", "no_successor");
    }

    @Test
    void aHandoverAtAStaleRevisionIsLostAndWritesAndGrantsNothing() throws Exception {
        long first = acquire("stale-handover", "h1", "i1").path("revision").asLong();
        long current = renew("stale-handover", "h1", "i1", first).path("revision").asLong();
        try (PlayedCandidate successor = new PlayedCandidate(client.connection(), "stale-handover", "h2", "i2")) {

            JsonNode reply = client.call("handover", handover("stale-handover", "h1", "i1", first, "h2", "i2"));

            assertEquals("lost", reply.path("kind").asText(), reply.toString());
            assertEquals(null, successor.nextGrant(Duration.ofMillis(300)), "asked maybe (ADR-046), granted nothing");
        }
        assertUnchanged("stale-handover", "h1", current);
    }

    @Test
    void aHandoverByAnotherHolderIsLostAndWritesAndGrantsNothing() throws Exception {
        assertRefusedWritingNothing("not-yours", "intruder", "i7", "i2", "lost");
    }

    @Test
    void aBadHandoverIsInvalidAndWritesNothing() throws Exception {
        long revision = acquire("bad-handover", "h1", "i1").path("revision").asLong();
        try (PlayedCandidate successor = new PlayedCandidate(client.connection(), "bad-handover", "h2", "i2")) {
            for (ObjectNode bad : new ObjectNode[] {
                    handover("bad-handover", "h1", "i1", revision, "h1", "i2"),
                    (ObjectNode) handover("bad-handover", "h1", "i1", revision, "h2", "i2").without("to_incarnation"),
                    (ObjectNode) handover("bad-handover", "h1", "i1", revision, "h2", "i2").without("to_holder"),
                    handover("bad-handover", "h1", "i1", revision, "h2", "i2").put("ttl_ms", 1500),
                    handover("bad-handover", "h1", "i1", revision, "h2.x", "i2"),
                    handover("bad-handover", "h1", "i1", revision, "h2", "i2").put("colour", "red")}) {

                JsonNode reply = client.call("handover", bad);

                assertEquals("invalid", reply.path("kind").asText(), bad + " -> " + reply);
            }
            assertEquals(0, successor.checks());
        }
        assertUnchanged("bad-handover", "h1", revision);
    }

    /**
     * h1 (incarnation i1) owns a fresh lease of {@code key} and h2 waits for it as i2; {@code holder} under
     * {@code incarnation} hands it to h2 under {@code toIncarnation}. The reply is of {@code kind}, h2 was
     * granted nothing (it is asked while the key is read, ADR-046), and nothing was written.
     */
    private static void assertRefusedWritingNothing(String key, String holder, String incarnation, String toIncarnation,
            String kind) throws Exception {
        long revision = acquire(key, "h1", "i1").path("revision").asLong();
        try (PlayedCandidate successor = new PlayedCandidate(client.connection(), key, "h2", "i2")) {

            JsonNode reply = client.call("handover", handover(key, holder, incarnation, revision, "h2", toIncarnation));

            assertEquals(kind, reply.path("kind").asText(), reply.toString());
            assertEquals(null, successor.nextGrant(Duration.ofMillis(300)), "nothing written, nothing granted");
        }
        assertUnchanged(key, "h1", revision);
    }

    private static ObjectNode handover(String key, String holder, String incarnation, long revision, String toHolder,
            String toIncarnation) {
        return WireClient.object().put("key", key).put("holder", holder).put("incarnation", incarnation)
                .put("revision", revision).put("to_holder", toHolder).put("to_incarnation", toIncarnation);
    }

    private static JsonNode acquire(String key, String holder, String incarnation) {
        JsonNode reply = client.call("acquire", WireClient.object().put("key", key).put("holder", holder)
                .put("incarnation", incarnation).put("ttl_ms", 30_000));
        assertTrue(reply.path("granted").asBoolean(), reply.toString());
        return reply;
    }

    private static JsonNode renew(String key, String holder, String incarnation, long revision) {
        return client.call("renew", WireClient.object().put("key", key).put("holder", holder)
                .put("incarnation", incarnation).put("revision", revision));
    }

    /** Nothing was written: the owner is still {@code holder} at {@code revision}. */
    private static void assertUnchanged(String key, String holder, long revision) {
        JsonNode owner = client.owner(key);
        assertEquals(holder, owner.path("holder").asText(), owner.toString());
        assertEquals(revision, owner.path("revision").asLong(), "nothing was written: " + owner);
    }

    private static void next(Subscription events, long revision) throws InterruptedException {
        Message event = events.nextMessage(Duration.ofSeconds(5));
        assertNotNull(event, "no event for revision " + revision);
        assertEquals(Long.toString(revision), event.getHeaders().getFirst("Nats-Sequence"));
    }
}
