package io.dagnats.leases.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
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
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Forwards when processes share a holder id (ADR-034): each incarnation has inboxes of its own,
 * so only the process the lease names receives a forward. Judged from what each process's own
 * handler recorded, and from the answers the callers got.
 */
class ForwardIncarnationAcceptanceTest {

    private static final Duration TTL = Duration.ofSeconds(9);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private NatsServerProcess nats;
    private DagnatsServer dagnats;
    private Connection instance;
    private ForwardToOwner forward;
    private final List<String> deliveries = new CopyOnWriteArrayList<>();
    private final List<String> rawReceived = new CopyOnWriteArrayList<>();
    private final Opened opened = new Opened();
    private final LeaseKey key = new LeaseKey("review-" + UUID.randomUUID());

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

        Tenure own() {
            kept = holder.keep(key.value(), TTL, OwnershipListener.NONE);
            return Polling.until(WAIT, holder.id() + " owning " + key, kept::tenure, tenure -> tenure.isPresent()).get();
        }

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
        instance = Nats.connect(new Options.Builder().server(nats.url()).reportNoResponders().build());
        LeaseBucket bucket = new LeaseBucket(instance, settings.bucket(), Clock.systemUTC());
        assertInstanceOf(BucketStatus.Ready.class, bucket.provision());
        LeaseStore store = new SharedReads(
                new NatsLeaseStore(instance, bucket, settings.service().jetStreamTimeout(), Clock.systemUTC()));
        OwnerInbox real = new NatsOwnerInbox(instance, LeaseTelemetry.NONE);
        OwnerInbox inbox = (LeaseKey leaseKey, Claimant owner, Fence fence, byte[] payload, Duration timeout) -> {
            CompletionStage<OwnerInbox.Delivery> delivery = real.deliver(leaseKey, owner, fence, payload, timeout);
            return delivery.thenApply(outcome -> {
                deliveries.add(owner + "@" + fence.revision() + " -> " + outcome.getClass().getSimpleName());
                return outcome;
            });
        };
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

    private ForwardToOwner.Outcome forward(String request) {
        return forward.execute(new ForwardToOwner.Command(key, request.getBytes(StandardCharsets.UTF_8),
                Duration.ofSeconds(5))).toCompletableFuture().join();
    }

    /**
     * A StatefulSet-style restart under one holder id: process A owns the key, a forward through
     * an instance that remembers the route; A closes (releasing through another dagnats), process
     * B under the same id takes the key. The next forward through the remembering instance goes
     * to A's incarnation: nobody listens there any more, so the instance reads the lease and
     * reaches B. Seen failing while both processes shared one inbox subject: B stayed silent, and
     * the answer was owner_timeout after 5 s, with nobody having processed it.
     */
    @Test
    void aRememberedRouteToAGoneIncarnationUnderASharedIdReachesTheNewOwner() throws Exception {
        String id = "pod-" + UUID.randomUUID();
        Owner a = new Owner(id);
        a.own();
        ForwardToOwner.Outcome first = forward("one");
        assertInstanceOf(ForwardToOwner.Outcome.Delivered.class, first, first::toString);
        a.close();
        Owner b = new Owner(id);
        Tenure bs = b.own();

        long sent = System.nanoTime();
        ForwardToOwner.Outcome second = forward("two");
        long tookMs = (System.nanoTime() - sent) / 1_000_000;

        String what = second + " after " + tookMs + " ms; deliveries " + deliveries + "; A served " + a.served
                + ", B served " + b.served + " (B's tenure " + bs.start() + ")";
        assertInstanceOf(ForwardToOwner.Outcome.Delivered.class, second, what);
        assertEquals(List.of("two under tenure " + bs.start()), b.served, what);
        assertEquals(1, a.served.size(), what);
    }

    /**
     * A guide-conforming raw-wire holder (it sends no incarnation, and rejects forwards for keys it
     * does not own, as the owner side rule says) shares a holder id with a library holder that owns
     * the key. Seen failing before each incarnation had inboxes of its own: 6 of 10 forwards the
     * library processed were answered owner_rejected ("not processed"), the raw holder's reject
     * having reached dagnats first.
     */
    @Test
    void aRawWireHolderSharingTheIdNeverSeesAForwardToTheLibraryHoldersLease() throws Exception {
        String id = "shared-" + UUID.randomUUID();
        Owner library = new Owner(id);
        library.own();
        Connection raw = opened.nats(nats.url());
        Dispatcher rawInbox = raw.createDispatcher(request -> {
            rawReceived.add(request.getSubject());
            // The raw holder owns nothing: the guide says reject as stale, with an empty body.
            Headers headers = new Headers();
            headers.put("Dagnats-Lease-Reject", "stale");
            raw.publish(NatsMessage.builder().subject(request.getReplyTo()).headers(headers).data(new byte[0]).build());
        });
        rawInbox.subscribe("dagnats.lease.inbox." + id + ".>");
        raw.flush(WAIT);

        List<String> answers = new ArrayList<>();
        try (WireClient caller = new WireClient(nats.url())) {
            for (int i = 0; i < 10; i++) {
                String request = "req-" + i;
                JsonNode answer = caller.call("forward", "{\"key\":\"" + key.value() + "\",\"payload\":\""
                        + Base64.getEncoder().encodeToString(request.getBytes(StandardCharsets.UTF_8))
                        + "\",\"timeout_ms\":2000}");
                answers.add(request + " -> " + answer.path("kind").asText(
                        new String(Base64.getDecoder().decode(answer.path("payload").asText()), StandardCharsets.UTF_8)));
            }
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            expected.add("req-" + i + " -> " + id + ":req-" + i);
        }
        // Every forward answered by the library holder, each processed once, none seen by the raw holder.
        assertEquals(expected, answers, "raw holder received " + rawReceived);
        assertEquals(10, library.served.size(), library.served.toString());
        assertEquals(List.of(), rawReceived);
    }
}
