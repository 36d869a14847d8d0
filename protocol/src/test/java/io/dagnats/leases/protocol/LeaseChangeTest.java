package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** A change event names the claimant of the write it republishes: holder id and, when sent, incarnation. */
class LeaseChangeTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    private static Optional<LeaseChange> read(Map<String, String> headers) {
        return LeaseChange.read("dagnats.lease.changed.k", headers::get, NOW);
    }

    @Test
    void aRenewalOfALeaseTakenUnderAnIncarnationNamesIt() {
        LeaseChange change = read(Map.of("Nats-Sequence", "42", "Dagnats-Lease-Event", "renewed",
                "Dagnats-Lease-Holder", "h", "Dagnats-Lease-Incarnation", "run-1", "Nats-TTL", "15s")).orElseThrow();

        assertEquals(LeaseChange.Kind.RENEWED, change.kind());
        assertEquals(Optional.of(Claimant.of(new HolderId("h"), new Incarnation("run-1"))), change.claimant());
    }

    @Test
    void aWriteOfAPlainHolderNamesNoIncarnationAndAnExpiryNamesNobody() {
        LeaseChange acquired = read(Map.of("Nats-Sequence", "42", "Dagnats-Lease-Event", "acquired",
                "Dagnats-Lease-Holder", "h")).orElseThrow();
        LeaseChange expired = read(Map.of("Nats-Sequence", "43", "Nats-Marker-Reason", "MaxAge")).orElseThrow();

        assertEquals(Optional.of(Claimant.of(new HolderId("h"))), acquired.claimant());
        assertEquals(Optional.empty(), expired.claimant());
    }

    /** dagnats removed a lease the store forgot to expire (ADR-035): an expiry, naming the lease it ended. */
    @Test
    void anExpiryDagnatsWroteIsAnExpiryNamingItsLease() {
        LeaseChange expired = read(Map.of("Nats-Sequence", "44", "Dagnats-Lease-Event", "expired",
                "Dagnats-Lease-Holder", "h", "Dagnats-Lease-Fence", "40", "KV-Operation", "DEL", "Nats-TTL", "60s"))
                .orElseThrow();

        assertEquals(LeaseChange.Kind.EXPIRED, expired.kind());
        assertEquals(Optional.of(Claimant.of(new HolderId("h"))), expired.claimant());
        assertEquals(Optional.of(new Fence(40)), expired.fence());
        assertEquals(Optional.empty(), expired.ttl());
    }

    /** ADR-047: a handover's event names the check whose yes it answers; no other event names one. */
    @Test
    void aHandoverNamesTheCheckItsYesAnswered() {
        LeaseChange handed = read(Map.of("Nats-Sequence", "45", "Dagnats-Lease-Event", "handed-over",
                "Dagnats-Lease-Holder", "h2", "Dagnats-Lease-Incarnation", "i2", "Dagnats-Lease-From", "h",
                "Dagnats-Lease-Check", "c1", "Nats-TTL", "15s")).orElseThrow();
        LeaseChange renewed = read(Map.of("Nats-Sequence", "46", "Dagnats-Lease-Event", "renewed",
                "Dagnats-Lease-Holder", "h2", "Dagnats-Lease-Check", "c1")).orElseThrow();

        assertEquals(Optional.of("c1"), handed.check());
        assertEquals(Optional.of(Duration.ofSeconds(15)), handed.ttl());
        assertEquals(Optional.empty(), renewed.check());
    }

    @Test
    void anIncarnationHeaderThatBreaksTheSyntaxIsNoEvent() {
        assertEquals(Optional.empty(), read(Map.of("Nats-Sequence", "42", "Dagnats-Lease-Event", "renewed",
                "Dagnats-Lease-Holder", "h", "Dagnats-Lease-Incarnation", "a b")));
    }

    /** The server counts each key's messages: a watcher that knows the last one sees whether it missed any. */
    @Test
    void anEventSaysWhichRevisionOfTheKeyItFollowed() {
        LeaseChange renewed = read(Map.of("Nats-Sequence", "42", "Nats-Last-Sequence", "40", "Dagnats-Lease-Event",
                "renewed", "Dagnats-Lease-Holder", "h")).orElseThrow();
        LeaseChange first = read(Map.of("Nats-Sequence", "43", "Nats-Last-Sequence", "0", "Dagnats-Lease-Event",
                "acquired", "Dagnats-Lease-Holder", "h")).orElseThrow();
        LeaseChange expired = read(Map.of("Nats-Sequence", "44", "Nats-Last-Sequence", "43", "Nats-Marker-Reason",
                "MaxAge")).orElseThrow();

        assertEquals(OptionalLong.of(40), renewed.previous());
        assertEquals(OptionalLong.of(0), first.previous());
        assertEquals(OptionalLong.of(43), expired.previous());
    }

    @Test
    void aPreviousRevisionThatIsMissingMalformedOrNotBelowTheEventsOwnSaysNothing() {
        for (String previous : new String[] {null, "", "-1", "+4", "4x", "42", "43", "99999999999999999999"}) {
            Map<String, String> headers = new java.util.HashMap<>(Map.of("Nats-Sequence", "42",
                    "Dagnats-Lease-Event", "renewed", "Dagnats-Lease-Holder", "h"));
            if (previous != null) {
                headers.put("Nats-Last-Sequence", previous);
            }
            assertEquals(OptionalLong.empty(), read(headers).orElseThrow().previous(), String.valueOf(previous));
        }
    }

    /** A consumer of the bucket's stream reads the stored message: revision and time from its metadata. */
    @Test
    void aStoredMessageReadsAsItsEventWithTheRevisionAndTimeTheStreamGaveIt() {
        Instant stored = Instant.parse("2026-12-01T11:59:00Z");
        LeaseChange released = LeaseChange.readStored("k", Map.of("Dagnats-Lease-Event", "released",
                "Dagnats-Lease-Holder", "h", "Dagnats-Lease-Fence", "40", "KV-Operation", "DEL")::get, 45, stored)
                .orElseThrow();
        LeaseChange renewed = LeaseChange.readStored("k", Map.of("Dagnats-Lease-Event", "renewed",
                "Dagnats-Lease-Holder", "h", "Nats-TTL", "15s")::get, 46, stored).orElseThrow();

        assertEquals(new LeaseChange(stored, new LeaseKey("k"), LeaseChange.Kind.RELEASED, 45,
                Optional.of(new HolderId("h")), Optional.of(new Fence(40)), Optional.empty(), Optional.empty()), released);
        assertEquals(Optional.of(new Fence(46)), renewed.fence());
        assertEquals(Optional.of(Duration.ofSeconds(15)), renewed.ttl());
        assertEquals(Optional.empty(), LeaseChange.readStored("not a key", Map.of("Nats-Marker-Reason", "MaxAge")::get,
                47, stored), "a subject that is no key is no change");
    }
}
