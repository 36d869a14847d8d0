package io.dagnats.leases.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.adapters.http.Readiness;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.nats.client.Connection;
import org.junit.jupiter.api.Test;

/** The readiness rule as a table: connected, and the bucket's verdict known (supported or not). */
class ServiceReadinessTest {

    private static final BucketStatus UNSUPPORTED = new BucketStatus.Unsupported("nats-server 2.9.25 is older than 2.11");
    private static final BucketStatus PENDING = new BucketStatus.Pending("JetStream has not answered");

    @Test
    void connectedWithAnUnsupportedVerdictIsReadyAndSaysWhy() {
        Readiness readiness = ServiceReadiness.of(Connection.Status.CONNECTED, UNSUPPORTED);

        assertInstanceOf(Readiness.Ready.class, readiness);
        assertEquals("leases unsupported: nats-server 2.9.25 is older than 2.11", readiness.reason());
    }

    @Test
    void noVerdictYetIsNotReady() {
        Readiness readiness = ServiceReadiness.of(Connection.Status.CONNECTED, PENDING);

        assertInstanceOf(Readiness.NotReady.class, readiness);
        assertEquals("leases not ready yet: JetStream has not answered", readiness.reason());
    }

    @Test
    void everyStateButConnectedIsNotReadyWhateverTheVerdict() {
        for (Connection.Status status : Connection.Status.values()) {
            if (status == Connection.Status.CONNECTED) {
                continue;
            }
            Readiness readiness = ServiceReadiness.of(status, UNSUPPORTED);
            assertInstanceOf(Readiness.NotReady.class, readiness, status.name());
            assertTrue(readiness.reason().startsWith("not connected to NATS (" + status.name().toLowerCase()), readiness.reason());
        }
    }

    @Test
    void startingAndStoppingAreNotReady() {
        ServiceReadiness readiness = new ServiceReadiness("nats://127.0.0.1:4222");
        assertEquals(new Readiness.NotReady("starting: connecting to NATS at nats://127.0.0.1:4222"), readiness.now());

        readiness.stopping();
        assertInstanceOf(Readiness.NotReady.class, readiness.now());
        assertTrue(readiness.now().reason().startsWith("stopping"), readiness.now().reason());
    }
}
