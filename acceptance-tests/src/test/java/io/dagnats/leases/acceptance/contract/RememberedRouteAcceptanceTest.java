package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Opened;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.adapters.nats.LeaseBucket;
import io.dagnats.leases.adapters.nats.NatsLeaseStore;
import io.dagnats.leases.adapters.nats.NatsOwnerInbox;
import io.dagnats.leases.application.ForwardToOwner;
import io.dagnats.leases.application.KnownLeases;
import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.application.SharedReads;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
class RememberedRouteAcceptanceTest {

    /** Renewed every 3 s; a remembered write is routed to for 9 s after it was made. */
    private static final Duration TTL = Duration.ofSeconds(9);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private NatsServerProcess nats;
    private DagnatsServer dagnats;
    private Connection instance;
    private ForwardToOwner forward;
    private final List<String> deliveries = new CopyOnWriteArrayList<>();
    private final Opened opened = new Opened();
    private final LeaseKey key = new LeaseKey("routed-" + UUID.randomUUID());

    /** An owner process: the holder library with a forward handler that records what it served. */
    private final class Owner {
        final Connection connection;
        final LeaseHolder holder;
        final List<String> served = new CopyOnWriteArrayList<>();
        KeptLease kept;

        Owner(String id) throws Exception {
            connection = opened.nats(nats.url());
            holder = opened.add(LeaseHolder.builder(connection).holderId(id).forwardHandler((tenure, payload) -> {
                String request = new String(payload, StandardCharsets.UTF_8);
                served.add(request + " under tenure " + tenure.start());
                return (id + ":" + request).getBytes(StandardCharsets.UTF_8);
            }).build());
        }

        /** Keeps the key and waits until this process acts as its owner; returns its tenure. */
        Tenure own() {
            kept = holder.keep(key.value(), TTL, OwnershipListener.NONE);
            return Polling.until(WAIT, holder.id() + " owning " + key, kept::tenure, tenure -> tenure.isPresent()).get();
        }

        /** Gives the key up (released through dagnats); it stops acting as owner first. */
        void drop() {
            holder.drop(key.value());
        }

        /** Closes the holder, and waits until the server has its inbox unsubscribed. */
        void close() throws Exception {
            holder.close();
            connection.flush(WAIT);
        }
    }

    @BeforeEach
    void start() throws Exception {
        nats = NatsServerProcess.modern();
        Settings settings = Settings.forUrl(nats.url());
        dagnats = DagnatsServer.start(settings);
        // The instance under test: dagnats' own parts, wired as bootstrap does, but never subscribed
        // to the lease subjects.
        instance = Nats.connect(new Options.Builder().server(nats.url()).reportNoResponders().build());
        LeaseBucket bucket = new LeaseBucket(instance, settings.bucket(), Clock.systemUTC());
        assertInstanceOf(BucketStatus.Ready.class, bucket.provision());
        LeaseStore store = new SharedReads(
                new NatsLeaseStore(instance, bucket, settings.service().jetStreamTimeout(), Clock.systemUTC()));
        OwnerInbox inbox = recording(new NatsOwnerInbox(instance, LeaseTelemetry.NONE));
        forward = new ForwardToOwner(store, new KnownLeases(1_000), inbox, MonotonicClock.SYSTEM, Clock.systemUTC());
    }

    @AfterEach
    void stop() throws Exception {
        opened.close();
        if (instance != null) {
            instance.close();
        }
        if (dagnats != null) {
            dagnats.close();
        }
        if (nats != null) {
            nats.close();
        }
    }

    /** The inbox, recording each attempt as {@code holder@fence -> outcome}. */
    private OwnerInbox recording(OwnerInbox inbox) {
        return (LeaseKey leaseKey, Claimant owner, Fence fence, byte[] payload, Duration timeout) -> {
            CompletionStage<OwnerInbox.Delivery> delivery = inbox.deliver(leaseKey, owner, fence, payload, timeout);
            return delivery.thenApply(outcome -> {
                deliveries.add(owner.holder().value() + "@" + fence.revision() + " -> " + outcome.getClass().getSimpleName());
                return outcome;
            });
        };
    }

    private ForwardToOwner.Outcome.Delivered forward(String request) {
        ForwardToOwner.Outcome outcome = forward.execute(new ForwardToOwner.Command(key,
                request.getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5))).toCompletableFuture().join();
        return assertInstanceOf(ForwardToOwner.Outcome.Delivered.class, outcome, outcome::toString);
    }

    private static String reply(ForwardToOwner.Outcome.Delivered delivered) {
        return new String(delivered.reply(), StandardCharsets.UTF_8);
    }

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
        try (WireClient operator = new WireClient(nats.url())) {
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
