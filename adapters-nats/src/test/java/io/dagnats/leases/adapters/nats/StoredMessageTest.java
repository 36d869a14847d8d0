package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StoredMessageTest {

    @Test
    void theTtlIsReadAsTheServerTakesIt() {
        assertEquals(Optional.of(Duration.ofSeconds(30)), ttl("30s"));
        assertEquals(Optional.of(Duration.ofSeconds(30)), ttl("30"));
        assertEquals(Optional.of(Duration.ofSeconds(90)), ttl("1m30s"));
        assertEquals(Optional.of(Duration.ofHours(2)), ttl("2h"));
    }

    /** A message whose TTL is not read is never judged expired by the service. */
    @Test
    void aTtlThisServiceDoesNotReadIsNone() {
        assertEquals(Optional.empty(), ttl("never"));
        assertEquals(Optional.empty(), ttl("1.5s"));
        assertEquals(Optional.empty(), ttl("500ms"));
        assertEquals(Optional.empty(), ttl(""));
        assertEquals(Optional.empty(), ttl("0s"));
        assertEquals(Optional.empty(), new StoredMessage(1, "s", Instant.EPOCH, Map.of(), new byte[0]).ttl());
    }

    private static Optional<Duration> ttl(String header) {
        return new StoredMessage(1, "s", Instant.EPOCH, Map.of("nats-ttl", header), new byte[0]).ttl();
    }
}
