package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.service.Discovery;
import io.nats.service.EndpointStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Replicas waiting for a held key ask the service only when the key is freed,
 * and by a slow fallback: renewals of the holder cost them nothing. Counted
 * from the service's own micro stats, so nothing in the holder library is
 * trusted to report on itself.
 */
class WaitingAcceptanceTest {

    private static final String KEY = "waited";
    private static final long TTL_MS = 2_000;
    /** The holder renews this often: ten change events per TTL, each of which woke every waiter before. */
    private static final long RENEW_EVERY_MS = 200;
    private static final int WAITERS = 20;
    private static final Duration WINDOW = Duration.ofSeconds(6);

    private ServiceFixture service;
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @BeforeEach
    void start() {
        service = ServiceFixture.start();
    }

    @AfterEach
    void stop() throws Exception {
        Collections.reverse(cleanup);
        for (AutoCloseable closeable : cleanup) {
            closeable.close();
        }
        service.close();
    }

    private long acquireRequests() {
        Discovery discovery = new Discovery(service.client.connection(), 5_000, 1);
        return discovery.stats(LeaseSubjects.SERVICE_NAME).stream()
                .flatMap(stats -> stats.getEndpointStatsList().stream())
                .filter(endpoint -> endpoint.getName().equals("acquire"))
                .mapToLong(EndpointStats::getNumRequests)
                .sum();
    }

    @Test
    void waitersAskOnlyByTheSlowFallbackWhileTheKeyIsRenewedAndOneTakesItAtOnceOnRelease() throws Exception {
        // The holder speaks the wire itself, so that it can renew far more often than the library would.
        long granted = service.client.acquire(KEY, "holder", TTL_MS).path("revision").asLong();
        AtomicLong revision = new AtomicLong(granted);
        ScheduledExecutorService renewing = Executors.newSingleThreadScheduledExecutor();
        cleanup.add(renewing::shutdownNow);
        List<String> renewals = new CopyOnWriteArrayList<>();
        renewing.scheduleWithFixedDelay(() -> {
            try {
                JsonNode renewed = service.client.renew(KEY, "holder", revision.get());
                if (renewed.path("granted").asBoolean(false)) {
                    revision.set(renewed.path("revision").asLong());
                } else {
                    renewals.add(renewed.toString());
                }
            } catch (RuntimeException failed) {
                renewals.add(failed.toString()); // and renews again: a later one may still keep the key
            }
        }, RENEW_EVERY_MS, RENEW_EVERY_MS, TimeUnit.MILLISECONDS);

        List<KeptLease> waiters = new ArrayList<>();
        for (int connectionIndex = 0; connectionIndex < 2; connectionIndex++) {
            Connection connection = Nats.connect(service.nats.url());
            cleanup.add(connection::close);
            for (int i = 0; i < WAITERS / 2; i++) {
                LeaseHolder holder = LeaseHolder.builder(connection).holderPrefix("waiter").build();
                cleanup.add(holder);
                waiters.add(holder.keep(KEY, Duration.ofMillis(TTL_MS), OwnershipListener.NONE));
            }
        }
        // Every waiter has made its first acquire (and been told the key is held).
        Polling.until(Duration.ofSeconds(10), "every waiter's first acquire", this::acquireRequests,
                count -> count >= 1 + WAITERS);

        long before = acquireRequests();
        long windowStart = System.nanoTime();
        Thread.sleep(WINDOW.toMillis()); // a measured window of 30 renewals, not a wait for a condition
        long asked = acquireRequests() - before;
        long windowNanos = System.nanoTime() - windowStart;

        // A waiter asks just after the holder's expiry as its last answer gave it, which is TTL - renew
        // interval (1.8 s) ahead or more; the bound allows half the TTL, for a renewal delayed by a loaded
        // machine, plus one per waiter. Woken by every renewal, the waiters asked 1066 times in 6 s.
        long fallbackEveryNanos = TimeUnit.MILLISECONDS.toNanos(TTL_MS / 2);
        long bound = WAITERS * (windowNanos / fallbackEveryNanos + 1);
        assertTrue(asked <= bound, WAITERS + " waiters asked " + asked + " times in " + windowNanos / 1_000_000
                + " ms while the key stayed held; the fallback allows at most " + bound);
        assertTrue(waiters.stream().noneMatch(KeptLease::isOwner), "a waiter owns a held key");
        assertTrue(renewals.isEmpty(), "the holder's renewals failed: " + renewals);

        renewing.shutdown(); // lets a renew in flight finish, so its revision is the one released
        assertTrue(renewing.awaitTermination(5, TimeUnit.SECONDS));
        JsonNode released = service.client.release(KEY, "holder", revision.get());
        assertTrue(released.path("released").asBoolean(false), released + "; renewals: " + renewals);
        long releasedAt = System.nanoTime();
        Polling.until(Duration.ofSeconds(1), "a waiter to own the released key",
                () -> waiters.stream().filter(KeptLease::isOwner).count(), owners -> owners == 1);
        long handover = (System.nanoTime() - releasedAt) / 1_000_000;
        assertTrue(handover < 1_000, "release to the next owner took " + handover + " ms");
    }
}
