package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.application.ForwardToOwner;
import io.dagnats.leases.domain.Tenure;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A forward routed from what an instance remembers (ADR-032) to an owner that was revoked, or to
 * an incarnation that is gone under a shared holder id, reaches the new owner; the old one never
 * processes it.
 */
class RememberedRouteToARevokedOrGoneOwnerAcceptanceTest extends RememberedRouteFixture {

    /**
     * Revoke is the override the contract allows: the revoked holder acts as owner until it
     * learns (its revoked event, or its next renew). Once it has, it rejects the remembered route.
     */
    @Test
    void aRevokedOwnerThatHasLearntItRejectsAndTheNewOwnerServes() throws Exception {
        Owner alice = new Owner("alice-" + UUID.randomUUID());
        Owner bob = new Owner("bob-" + UUID.randomUUID());
        alice.own();
        long remembered = forward("one").owner().revision().revision();
        try (WireClient operator = new WireClient(service.nats.url())) {
            assertTrue(operator.revoke(key.value(), "moving it").path("revoked").asBoolean());
        }
        Polling.until(WAIT, "alice to learn of the revoke", alice.kept::isOwner, owner -> !owner);
        bob.own();

        ForwardToOwner.Outcome.Delivered delivered = forward("two");

        assertEquals(bob.holder.id(), delivered.owner().holder());
        assertEquals(List.of(alice.holder.id().value() + "@" + remembered + " -> Replied",
                alice.holder.id().value() + "@" + remembered + " -> Rejected",
                bob.holder.id().value() + "@" + delivered.owner().revision().revision() + " -> Replied"), deliveries);
        assertEquals(1, alice.served.size());
    }

    /**
     * A StatefulSet-style restart under one holder id: process A owns the key and this instance
     * remembers the route; A closes (releasing through the other dagnats), process B under the same
     * id takes the key. The next forward goes to A's incarnation: nobody listens there any more, so
     * this instance reads the lease and reaches B. Seen failing while both processes shared one
     * inbox subject (ADR-034's first design): B stayed silent, and the answer was owner_timeout
     * after 5 s, with nobody having processed the request.
     */
    @Test
    void aRememberedRouteToAGoneIncarnationUnderASharedIdReachesTheNewOwner() throws Exception {
        String id = "pod-" + UUID.randomUUID();
        Owner a = new Owner(id);
        a.own();
        forward("one");
        a.close();
        Owner b = new Owner(id);
        Tenure bs = b.own();

        ForwardToOwner.Outcome.Delivered delivered = forward("two");

        assertEquals(id + ":two", reply(delivered), deliveries.toString());
        assertEquals(List.of("two under tenure " + bs.start()), b.served);
        assertEquals(1, a.served.size(), a.served.toString());
    }
}
