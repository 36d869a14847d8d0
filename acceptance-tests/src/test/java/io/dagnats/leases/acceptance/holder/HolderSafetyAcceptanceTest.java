package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.nats.client.Connection;
import io.nats.client.JetStreamStatusException;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What the holder library guarantees when the user's own code misbehaves or outlives its tenure. */
class HolderSafetyAcceptanceTest {

    private static final Duration TTL = Duration.ofSeconds(2);

    private ServiceFixture service;
    private WireClient client;
    private Connection connection;

    @BeforeEach
    void start() throws Exception {
        service = ServiceFixture.start();
        client = service.client;
        connection = Nats.connect(service.nats.url());
    }

    @AfterEach
    void stop() throws Exception {
        connection.close();
        service.close();
    }

    @Test
    void aListenerThatThrowsNeverStopsTheLeaseBeingKept() throws Exception {
        try (LeaseHolder holder = LeaseHolder.builder(connection).holderPrefix("throws").build()) {
            KeptLease lease = holder.keep("listener-throws", TTL, new OwnershipListener() {
                @Override
                public void becameOwner(Tenure tenure) {
                    throw new IllegalStateException("a bug in the user's listener");
                }

                @Override
                public void stoppedOwning(StopReason reason) {
                    throw new IllegalStateException("another bug in the user's listener");
                }
            });
            JsonNode first = Polling.until(Duration.ofSeconds(10), "the lease held",
                    () -> client.owner("listener-throws"), reply -> reply.path("held").asBoolean());

            // Two TTLs later it must still be ours, renewed several times over.
            long firstRevision = first.path("revision").asLong();
            JsonNode later = Polling.until(TTL.multipliedBy(3), "renewals after the listener threw",
                    () -> client.owner("listener-throws"),
                    reply -> reply.path("revision").asLong() >= firstRevision + 3);
            assertTrue(later.path("held").asBoolean(), later.toString());
            assertTrue(later.path("holder").asText().equals(holder.id().value()), later.toString());
            assertTrue(lease.isOwner());
        }
    }

    @Test
    void aForwardHandlerStillRunningWhenOwnershipEndsIsInterrupted() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicLong interruptedAt = new AtomicLong();
        AtomicLong deadlineSeen = new AtomicLong();
        try (LeaseHolder holder = LeaseHolder.builder(connection).holderPrefix("slow")
                .forwardHandler((tenure, payload) -> {
                    deadlineSeen.set(tenure.deadlineNanos());
                    started.countDown();
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException interrupted) {
                        interruptedAt.set(System.nanoTime());
                    }
                    return new byte[0];
                })
                .build()) {
            KeptLease lease = holder.keep("slow-handler", TTL, OwnershipListener.NONE);
            Polling.until(Duration.ofSeconds(10), "ownership", lease::isOwner, owner -> owner);
            client.callAsync("forward", "{\"key\":\"slow-handler\",\"payload\":\"\",\"timeout_ms\":30000}");
            assertTrue(started.await(10, TimeUnit.SECONDS), "the handler started");

            // dagnats dies: no renew can succeed, so ownership ends at the deadline.
            long crashedAt = System.nanoTime();
            service.dagnats().crash();
            Polling.until(TTL.plusSeconds(2), "the handler to be interrupted", interruptedAt::get, at -> at != 0);

            assertFalse(lease.isOwner());
            assertTrue(interruptedAt.get() - deadlineSeen.get() >= 0, "never interrupted before the deadline it was given");
            assertTrue(interruptedAt.get() - crashedAt <= TTL.toNanos() + 1_000_000_000L,
                    "interrupted " + (interruptedAt.get() - crashedAt) / 1_000_000 + " ms after the crash");
        } finally {
            service.restartDagnats();
        }
    }

    /** Drop the key, or close the whole holder, while a forward handler of it runs. */
    enum Release {
        DROP, CLOSE
    }

    @ParameterizedTest
    @EnumSource(Release.class)
    void aForwardHandlerRunningWhenTheKeyIsReleasedIsInterruptedAndEndsBeforeTheNextOwnerBegins(Release how)
            throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicLong interruptedAt = new AtomicLong();
        AtomicLong endedAt = new AtomicLong();
        Duration longTtl = Duration.ofSeconds(6);
        LeaseHolder first = LeaseHolder.builder(connection).holderPrefix("first")
                .forwardHandler((tenure, payload) -> {
                    started.countDown();
                    try {
                        Thread.sleep(2_000); // downstream work, as long as a third of the TTL
                    } catch (InterruptedException interrupted) {
                        interruptedAt.set(System.nanoTime());
                    }
                    endedAt.set(System.nanoTime());
                    return new byte[0];
                })
                .build();
        KeptLease firstLease = first.keep("released-while-serving", longTtl, OwnershipListener.NONE);
        Polling.until(Duration.ofSeconds(10), "the first to own", firstLease::isOwner, owner -> owner);
        try (Connection secondConnection = Nats.connect(service.nats.url());
                LeaseHolder second = LeaseHolder.builder(secondConnection).holderPrefix("second").build()) {
            KeptLease secondLease = second.keep("released-while-serving", longTtl, OwnershipListener.NONE);
            client.callAsync("forward", "{\"key\":\"released-while-serving\",\"payload\":\"\",\"timeout_ms\":10000}");
            assertTrue(started.await(10, TimeUnit.SECONDS), "the handler started");

            if (how == Release.DROP) {
                first.drop("released-while-serving");
            } else {
                first.close();
            }

            // The second's own belief, looked at closely: it began after the last look that did not
            // see it (its becameOwner comes later, on the listener thread, so it cannot date it).
            long secondNotYetOwner = System.nanoTime();
            long giveUp = secondNotYetOwner + Duration.ofSeconds(10).toNanos();
            while (true) {
                long looked = System.nanoTime();
                if (secondLease.isOwner()) {
                    break;
                }
                secondNotYetOwner = looked;
                assertTrue(looked - giveUp < 0, "the second came to own within 10 s");
                LockSupport.parkNanos(100_000);
            }
            assertTrue(interruptedAt.get() != 0, "the first's handler was interrupted");
            assertTrue(endedAt.get() - secondNotYetOwner < 0, "the first's handler ran "
                    + (endedAt.get() - secondNotYetOwner) / 1_000_000 + " ms into the second's ownership");
        } finally {
            first.close();
        }
    }

    @Test
    void aForwardToAnInboxTokenThatIsNoKeyIsRejectedStale() throws Exception {
        try (LeaseHolder holder = LeaseHolder.builder(connection).holderPrefix("inbox")
                .forwardHandler((tenure, payload) -> new byte[0]).build()) {
            Message reply = client.connection().request(NatsMessage.builder()
                    .subject("dagnats.lease.incarnation." + holder.id().value() + "." + holder.incarnation().value()
                            + ".not!a!key")
                    .headers(new Headers().put("Dagnats-Lease-Fence", "1"))
                    .data(new byte[0]).build(), Duration.ofSeconds(5));

            assertTrue(reply != null && reply.getHeaders() != null, "an answer, not a timeout");
            assertEquals("stale", reply.getHeaders().getFirst("Dagnats-Lease-Reject"));
        }
    }

    @Test
    void aHolderOfTheLibraryListensOnlyOnItsOwnIncarnationsInboxes() throws Exception {
        try (LeaseHolder holder = LeaseHolder.builder(connection).holderPrefix("inbox")
                .forwardHandler((tenure, payload) -> new byte[0]).build();
                Connection asker = Nats.connect(new Options.Builder().server(service.nats.url()).reportNoResponders().build())) {
            // The plain inbox of its holder id, and the inboxes of another incarnation under its id.
            for (String subject : List.of("dagnats.lease.inbox." + holder.id().value() + ".some-key",
                    "dagnats.lease.incarnation." + holder.id().value() + ".another-run.some-key")) {
                String outcome = asker.requestWithTimeout(NatsMessage.builder().subject(subject)
                        .headers(new Headers().put("Dagnats-Lease-Fence", "1")).data(new byte[0]).build(),
                        Duration.ofSeconds(5)).handle((reply, failure) -> {
                            Throwable cause = failure != null && failure.getCause() != null ? failure.getCause() : failure;
                            if (cause != null) {
                                return cause instanceof JetStreamStatusException status
                                        ? "status " + status.getStatus().getCode() : cause.toString();
                            }
                            return reply.isStatusMessage() ? "status " + reply.getStatus().getCode() : "a reply";
                        }).join();

                assertEquals("status 503", outcome, "no responders on " + subject);
            }
        }
    }
}
