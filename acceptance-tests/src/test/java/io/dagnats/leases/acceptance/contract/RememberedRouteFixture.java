package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.acceptance.harness.Opened;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
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

/**
 * One nats-server, one dagnats and an instance's forward with what it remembers, for the
 * remembered-route tests, with the holder library as owner. A base class so that the tests, split
 * by the rule they prove, moved without being rewritten.
 */
abstract class RememberedRouteFixture {

    /** Renewed every 3 s; a remembered write is routed to for 9 s after it was made. */
    static final Duration TTL = Duration.ofSeconds(9);
    static final Duration WAIT = Duration.ofSeconds(10);

    ServiceFixture service;
    Connection instance;
    ForwardToOwner forward;
    final List<String> deliveries = new CopyOnWriteArrayList<>();
    final Opened opened = new Opened();
    final LeaseKey key = new LeaseKey("routed-" + UUID.randomUUID());

    /** An owner process: the holder library with a forward handler that records what it served. */
    final class Owner {
        final Connection connection;
        final LeaseHolder holder;
        final List<String> served = new CopyOnWriteArrayList<>();
        KeptLease kept;

        Owner(String id) throws Exception {
            connection = opened.nats(service.nats.url());
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
        service = ServiceFixture.start();
        Settings settings = service.settings();
        // The instance under test: dagnats' own parts, wired as bootstrap does, but never subscribed
        // to the lease subjects.
        instance = Nats.connect(new Options.Builder().server(service.nats.url()).reportNoResponders().build());
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
        if (service != null) {
            service.close();
        }
    }

    /** The inbox, recording each attempt as {@code holder@fence -> outcome}. */
    OwnerInbox recording(OwnerInbox inbox) {
        return (LeaseKey leaseKey, Claimant owner, Fence fence, byte[] payload, Duration timeout) -> {
            CompletionStage<OwnerInbox.Delivery> delivery = inbox.deliver(leaseKey, owner, fence, payload, timeout);
            return delivery.thenApply(outcome -> {
                deliveries.add(owner.holder().value() + "@" + fence.revision() + " -> " + outcome.getClass().getSimpleName());
                return outcome;
            });
        };
    }

    ForwardToOwner.Outcome.Delivered forward(String request) {
        ForwardToOwner.Outcome outcome = forward.execute(new ForwardToOwner.Command(key,
                request.getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5))).toCompletableFuture().join();
        return assertInstanceOf(ForwardToOwner.Outcome.Delivered.class, outcome, outcome::toString);
    }

    static String reply(ForwardToOwner.Outcome.Delivered delivered) {
        return new String(delivered.reply(), StandardCharsets.UTF_8);
    }
}
