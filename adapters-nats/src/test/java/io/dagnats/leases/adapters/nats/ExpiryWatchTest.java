package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which change events are expiries, read as nats-server 2.15 republishes them. */
class ExpiryWatchTest {

    @Test
    void anExpiryMarkerNamesTheKeyAndTheRevisionItRemoved() {
        Message marker = event("dagnats.lease.changed.orders-7", "Nats-Marker-Reason", "MaxAge",
                "Nats-Last-Sequence", "1796065216886368");

        assertEquals(Optional.of(new ExpiryWatch.Expiry(new LeaseKey("orders-7"), new Fence(1796065216886368L))),
                ExpiryWatch.expiry(marker));
    }

    @Test
    void inIdentityModeAnExpiryNamesTheAccountsKey() {
        Message marker = event("dagnats.lease.changed.A.orders-7", "Nats-Marker-Reason", "MaxAge",
                "Nats-Last-Sequence", "42");

        assertEquals(Optional.of(new ExpiryWatch.Expiry(LeaseKey.in(new Account("A"), "orders-7"), new Fence(42))),
                ExpiryWatch.expiry(marker));
    }

    @Test
    void writesPurgesAndMalformedMarkersAreNoExpiry() {
        assertTrue(ExpiryWatch.expiry(event("dagnats.lease.changed.k", "Dagnats-Lease-Event", "acquired",
                "Nats-Last-Sequence", "0")).isEmpty());
        assertTrue(ExpiryWatch.expiry(event("dagnats.lease.changed.k", "Nats-Marker-Reason", "Purge",
                "Nats-Last-Sequence", "12")).isEmpty());
        assertTrue(ExpiryWatch.expiry(event("dagnats.lease.changed.k", "Nats-Marker-Reason", "MaxAge",
                "Nats-Last-Sequence", "-1")).isEmpty());
        assertTrue(ExpiryWatch.expiry(event("dagnats.lease.changed.k", "Nats-Marker-Reason", "MaxAge")).isEmpty());
        assertTrue(ExpiryWatch.expiry(NatsMessage.builder().subject("dagnats.lease.changed.k").build()).isEmpty());
    }

    private static Message event(String subject, String... headerPairs) {
        Headers headers = new Headers();
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.put(headerPairs[i], headerPairs[i + 1]);
        }
        return NatsMessage.builder().subject(subject).headers(headers).build();
    }
}
