package io.dagnats.leases.cli;

import io.dagnats.leases.protocol.LeaseChange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.impl.Headers;
import io.nats.client.support.NatsJetStreamConstants;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LeaseChangeTest {

    private static final Instant RECEIVED = Instant.parse("2026-11-30T12:00:09Z");
    private static final String SUBJECT = LeaseSubjects.CHANGED_PREFIX + "notify-leader";

    private static Headers event(String event, long sequence) {
        Headers headers = new Headers()
                .add(NatsJetStreamConstants.NATS_SEQUENCE, Long.toString(sequence))
                .add(NatsJetStreamConstants.NATS_TIMESTAMP, "2026-11-30T12:00:05.123456789Z");
        if (event != null) {
            headers.add(LeaseHeaders.EVENT, event);
        }
        return headers;
    }

    @Test
    void anAcquireNamesItsHolderItsRevisionAndItsTtl() {
        Headers headers = event("acquired", 42).add(LeaseHeaders.HOLDER, "notify-7f3a")
                .add(NatsJetStreamConstants.MSG_TTL_HDR, "15s");

        LeaseChange change = LeaseChange.read(SUBJECT, headers::getFirst, RECEIVED).orElseThrow();

        assertEquals(LeaseChange.Kind.ACQUIRED, change.kind());
        assertEquals("notify-leader", change.key().value());
        assertEquals(Optional.of(new HolderId("notify-7f3a")), change.holder());
        assertEquals(Optional.of(new Fence(42)), change.fence());
        assertEquals(Optional.of(Duration.ofSeconds(15)), change.ttl());
        assertEquals(Instant.parse("2026-11-30T12:00:05.123456789Z"), change.time());
    }

    @Test
    void aRevokeNamesTheLeaseThatEndedAndWhy() {
        Headers headers = event("revoked", 44).add(LeaseHeaders.HOLDER, "notify-7f3a")
                .add(LeaseHeaders.FENCE, "43").add(LeaseHeaders.REASON, "stuck after deploy");

        LeaseChange change = LeaseChange.read(SUBJECT, headers::getFirst, RECEIVED).orElseThrow();

        assertEquals(LeaseChange.Kind.REVOKED, change.kind());
        assertEquals(44, change.sequence());
        assertEquals(Optional.of(new Fence(43)), change.fence());
        assertEquals(Optional.of("stuck after deploy"), change.reason());
        assertEquals(Optional.empty(), change.ttl());
    }

    @Test
    void theServersExpiryMarkerIsAnExpiryOfNobodyYet() {
        Headers headers = event(null, 45).add(NatsJetStreamConstants.NATS_MARKER_REASON_HDR, "MaxAge");

        LeaseChange change = LeaseChange.read(SUBJECT, headers::getFirst, RECEIVED).orElseThrow();

        assertEquals(LeaseChange.Kind.EXPIRED, change.kind());
        assertEquals(Optional.empty(), change.holder());
    }

    @Test
    void aKeyRemovedWithNatsOwnToolsReadsAsRevokedNamingNobody() {
        for (Headers headers : java.util.List.of(event(null, 45).add("KV-Operation", "DEL"),
                event(null, 45).add("KV-Operation", "PURGE").add("Nats-Rollup", "sub"),
                event(null, 45).add(NatsJetStreamConstants.NATS_MARKER_REASON_HDR, "Purge"))) {
            LeaseChange change = LeaseChange.read(SUBJECT, headers::getFirst, RECEIVED).orElseThrow();

            assertEquals(LeaseChange.Kind.REVOKED, change.kind(), "the key is free: its holder must stop");
            assertEquals(45, change.sequence());
            assertEquals(Optional.empty(), change.holder());
            assertTrue(change.reason().orElseThrow().startsWith("removed with NATS' own tools"), change.reason().get());
        }
    }

    @Test
    void whatIsNoLeaseChangeIsLeftOut() {
        assertTrue(LeaseChange.read(SUBJECT, event("transferred", 46)::getFirst, RECEIVED).isEmpty(), "an event this version does not know");
        assertTrue(LeaseChange.read("elsewhere.notify-leader", event("acquired", 47)::getFirst, RECEIVED).isEmpty(), "another subject");
        assertTrue(LeaseChange.read(SUBJECT, (new Headers().add(LeaseHeaders.EVENT, "acquired"))::getFirst, RECEIVED).isEmpty(),
                "no sequence");
        assertTrue(LeaseChange.read(SUBJECT, name -> null, RECEIVED).isEmpty(), "no headers");
    }

    @Test
    void withoutAServerTimeTheReceivedTimeStands() {
        Headers headers = new Headers().add(NatsJetStreamConstants.NATS_SEQUENCE, "7").add(LeaseHeaders.EVENT, "released");
        assertEquals(RECEIVED, LeaseChange.read(SUBJECT, headers::getFirst, RECEIVED).orElseThrow().time());
    }
}
