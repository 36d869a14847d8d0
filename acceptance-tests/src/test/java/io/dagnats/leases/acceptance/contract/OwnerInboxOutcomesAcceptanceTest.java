package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.adapters.nats.NatsOwnerInbox;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.application.OwnerInbox.Delivery;
import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The NATS owner inbox against a real nats-server: what each way a delivery can
 * end is reported as. Only a proven "nobody listens" may come back as
 * {@link Delivery.NoResponders} (the forward rules retry after it and may end in
 * {@code owner_unavailable}); a request the owner received and did not answer
 * in time is {@link Delivery.TimedOut}, whichever of jnats's request sweeper or
 * the adapter's own deadline ends it first.
 */
class OwnerInboxOutcomesAcceptanceTest {

    private static final LeaseKey KEY = new LeaseKey("inbox-outcomes");
    private static final Fence FENCE = new Fence(7);

    private NatsServerProcess server;
    private Connection dagnats;
    private Connection owners;

    @BeforeEach
    void start() throws Exception {
        server = NatsServerProcess.modern();
        // As bootstrap's NatsModule connects, except that jnats sweeps expired
        // requests every millisecond instead of every 5 s, so its sweeper,
        // rather than the adapter's own deadline, often ends a request.
        dagnats = Nats.connect(new Options.Builder().server(server.url())
                .reportNoResponders()
                .requestCleanupInterval(Duration.ofMillis(1))
                .build());
        owners = Nats.connect(server.url());
    }

    @AfterEach
    void stop() throws Exception {
        if (owners != null) {
            owners.close();
        }
        if (dagnats != null) {
            dagnats.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** An owner that receives every request on its inbox and never answers; returns what it received. */
    private Set<String> silentOwner(HolderId silent) throws Exception {
        Set<String> received = ConcurrentHashMap.newKeySet();
        Dispatcher dispatcher = owners.createDispatcher(
                request -> received.add(new String(request.getData(), StandardCharsets.UTF_8)));
        dispatcher.subscribe("dagnats.lease.inbox." + silent.value() + "." + KEY.value());
        owners.flush(Duration.ofSeconds(5));
        return received;
    }

    @Test
    void aRequestTheOwnerReceivedButDidNotAnswerInTimeIsAlwaysATimeoutNeverNoResponders() throws Exception {
        HolderId silent = new HolderId("silent-owner");
        Set<String> received = silentOwner(silent);
        OwnerInbox inbox = new NatsOwnerInbox(dagnats, LeaseTelemetry.NONE);

        int deliveries = 400;
        List<CompletableFuture<Delivery>> outcomes = new ArrayList<>();
        for (int i = 0; i < deliveries; i++) {
            // Deadlines spread over 100..299 ms so the adapter's deadline and
            // jnats's sweeper race at many different moments.
            Duration timeout = Duration.ofMillis(100 + i % 200);
            byte[] payload = ("request-" + i).getBytes(StandardCharsets.UTF_8);
            outcomes.add(inbox.deliver(KEY, Claimant.of(silent), FENCE, payload, timeout).toCompletableFuture());
        }
        CompletableFuture.allOf(outcomes.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);

        Map<String, Long> byOutcome = outcomes.stream().map(CompletableFuture::join)
                .collect(Collectors.groupingBy(delivery -> delivery.getClass().getSimpleName(), TreeMap::new,
                        Collectors.counting()));
        Polling.until(Duration.ofSeconds(10), "the owner to have received every request", received::size,
                count -> count == deliveries);
        assertEquals(Map.of("TimedOut", (long) deliveries), byOutcome,
                "every request reached the owner, so none may be reported as not processed");
    }

    @Test
    void aRequestEndedByJnatsSweeperWhileTheDeadlineTimerIsLateIsATimeout() throws Exception {
        HolderId silent = new HolderId("silent-owner");
        Set<String> received = silentOwner(silent);
        OwnerInbox inbox = new NatsOwnerInbox(dagnats, LeaseTelemetry.NONE);

        // The adapter's own deadlines are swept by one timer thread for the process,
        // which also runs the dependents of every timeout inline; occupy it, as a busy
        // or paused JVM would, so that jnats's sweeper ends every request first. A
        // delivery on a connection whose own sweeper never runs in this test can only
        // be ended by that timer: its dependent holds the timer until resumed.
        HolderId timerHolder = new HolderId("timer-holder");
        silentOwner(timerHolder);
        CountDownLatch stalled = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        Connection unswept = Nats.connect(new Options.Builder().server(server.url())
                .reportNoResponders()
                .requestCleanupInterval(Duration.ofHours(1))
                .build());
        new NatsOwnerInbox(unswept, LeaseTelemetry.NONE)
                .deliver(KEY, Claimant.of(timerHolder), FENCE, new byte[0], Duration.ofMillis(100))
                .whenComplete((outcome, failure) -> {
                    stalled.countDown();
                    try {
                        resume.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                    }
                });
        List<CompletableFuture<Delivery>> outcomes = new ArrayList<>();
        try {
            assertTrue(stalled.await(10, TimeUnit.SECONDS), "the deadline timer to be held");
            for (int i = 0; i < 50; i++) {
                byte[] payload = ("request-" + i).getBytes(StandardCharsets.UTF_8);
                outcomes.add(inbox.deliver(KEY, Claimant.of(silent), FENCE, payload, Duration.ofMillis(100)).toCompletableFuture());
            }
            Polling.until(Duration.ofSeconds(10), "jnats's sweeper to end every request",
                    () -> outcomes.stream().filter(CompletableFuture::isDone).count(), done -> done == outcomes.size());
        } finally {
            resume.countDown();
            unswept.close();
        }

        Map<String, Long> byOutcome = outcomes.stream().map(CompletableFuture::join)
                .collect(Collectors.groupingBy(delivery -> delivery.getClass().getSimpleName(), TreeMap::new,
                        Collectors.counting()));
        Polling.until(Duration.ofSeconds(10), "the owner to have received every request", received::size,
                count -> count == outcomes.size());
        assertEquals(Map.of("TimedOut", 50L), byOutcome,
                "every request reached the owner, so none may be reported as not processed");
    }

    @Test
    void theInboxRefusesAConnectionThatDoesNotReportNoResponders() throws Exception {
        // Without reportNoResponders jnats answers "nobody listens" with the same
        // cancellation its sweeper uses for a timeout: the two could not be told apart.
        try (Connection plain = Nats.connect(server.url())) {
            assertThrows(IllegalArgumentException.class, () -> new NatsOwnerInbox(plain, LeaseTelemetry.NONE));
        }
    }

    @Test
    void aRequestToAnInboxNobodySubscribesToIsNoResponders() throws Exception {
        OwnerInbox inbox = new NatsOwnerInbox(dagnats, LeaseTelemetry.NONE);

        List<CompletableFuture<Delivery>> outcomes = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            outcomes.add(inbox.deliver(KEY, Claimant.of(new HolderId("nobody-" + i)), FENCE, new byte[0], Duration.ofSeconds(5))
                    .toCompletableFuture());
        }
        CompletableFuture.allOf(outcomes.toArray(new CompletableFuture[0])).get(30, TimeUnit.SECONDS);

        Map<String, Long> byOutcome = outcomes.stream().map(CompletableFuture::join)
                .collect(Collectors.groupingBy(delivery -> delivery.getClass().getSimpleName(), TreeMap::new,
                        Collectors.counting()));
        assertEquals(Map.of("NoResponders", 50L), byOutcome);
    }
}
