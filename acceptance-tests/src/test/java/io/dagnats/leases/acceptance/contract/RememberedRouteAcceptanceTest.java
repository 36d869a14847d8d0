package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.application.ForwardToOwner;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Tenure;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A forward routed from what an instance remembers (ADR-032), against a real
 * nats-server with the holder library as owner: a remembered owner that has
 * lost the key never processes the request. It rejects it as stale (it is not
 * acting as owner, or the remembered fence is below its new tenure) or nobody
 * listens on its inbox, and the forward then reaches the real owner.
 *
 * <p>The holders take and give up the key through a running dagnats. The
 * instance under test is a second one that takes no requests from the queue
 * group: it only forwards, so nothing the holders do reaches its memory, as
 * with several dagnats instances where the holders' calls land on the others.
 */
class RememberedRouteAcceptanceTest extends RememberedRouteFixture {

    @Test
    void aRememberedOwnerStillOwningIsAskedUnderAnOlderFenceOfItsTenureAndServes() throws Exception {
        Owner alice = new Owner("alice-" + UUID.randomUUID());
        Tenure tenure = alice.own();
        ForwardToOwner.Outcome.Delivered first = forward("one");
        long remembered = first.owner().revision().revision();
        // The holder renews through the other dagnats: this instance still remembers the older fence.
        Polling.until(WAIT, "a renewal", () -> alice.kept.fence().map(Fence::revision).orElse(0L),
                fence -> fence > remembered);

        ForwardToOwner.Outcome.Delivered second = forward("two");

        assertEquals(remembered, second.owner().revision().revision());
        assertEquals(List.of(alice.holder.id().value() + "@" + remembered + " -> Replied",
                alice.holder.id().value() + "@" + remembered + " -> Replied"), deliveries);
        assertEquals(List.of("one under tenure " + tenure.start(), "two under tenure " + tenure.start()), alice.served);
    }

    @Test
    void aRememberedOwnerThatLostTheKeyToAnotherHolderRejectsAndTheNewOwnerServes() throws Exception {
        Owner alice = new Owner("alice-" + UUID.randomUUID());
        Owner bob = new Owner("bob-" + UUID.randomUUID());
        alice.own();
        long remembered = forward("one").owner().revision().revision();
        alice.drop();
        Tenure bobs = bob.own();

        ForwardToOwner.Outcome.Delivered delivered = forward("two");

        assertEquals(bob.holder.id(), delivered.owner().holder());
        assertEquals(bob.holder.id().value() + ":two", reply(delivered));
        assertEquals(List.of(alice.holder.id().value() + "@" + remembered + " -> Replied",
                alice.holder.id().value() + "@" + remembered + " -> Rejected",
                bob.holder.id().value() + "@" + delivered.owner().revision().revision() + " -> Replied"), deliveries);
        assertEquals(1, alice.served.size(), alice.served.toString());
        assertEquals(List.of("two under tenure " + bobs.start()), bob.served);
    }

    @Test
    void aRememberedOwnerThatTookTheKeyAgainRejectsTheOldFenceAndServesUnderItsNewTenure() throws Exception {
        Owner alice = new Owner("alice-" + UUID.randomUUID());
        Tenure first = alice.own();
        long remembered = forward("one").owner().revision().revision();
        alice.drop();
        Tenure again = alice.own();
        assertTrue(again.start().revision() > remembered, again + " after " + remembered);

        ForwardToOwner.Outcome.Delivered delivered = forward("two");

        assertEquals(alice.holder.id(), delivered.owner().holder());
        assertEquals(List.of(alice.holder.id().value() + "@" + remembered + " -> Replied",
                alice.holder.id().value() + "@" + remembered + " -> Rejected",
                alice.holder.id().value() + "@" + delivered.owner().revision().revision() + " -> Replied"), deliveries);
        // The old fence reached the process while it owned the key again, and it still refused it.
        assertEquals(List.of("one under tenure " + first.start(), "two under tenure " + again.start()), alice.served);
    }

    @Test
    void aRememberedOwnerThatIsGoneHasNoRespondersAndTheNewOwnerServes() throws Exception {
        Owner alice = new Owner("alice-" + UUID.randomUUID());
        Owner bob = new Owner("bob-" + UUID.randomUUID());
        alice.own();
        long remembered = forward("one").owner().revision().revision();
        alice.close();
        bob.own();

        ForwardToOwner.Outcome.Delivered delivered = forward("two");

        assertEquals(bob.holder.id(), delivered.owner().holder());
        assertEquals(List.of(alice.holder.id().value() + "@" + remembered + " -> Replied",
                alice.holder.id().value() + "@" + remembered + " -> NoResponders",
                bob.holder.id().value() + "@" + delivered.owner().revision().revision() + " -> Replied"), deliveries);
        assertEquals(1, alice.served.size());
    }
}
