package io.dagnats.leases.holder.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.HolderHealth.Cause;
import io.dagnats.leases.holder.HolderHealth;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The holder's runner of {@link Reachability}: its threshold, its causes, its log lines. */
class HealthWatchTest {

    /** Held here: java.util.logging keeps loggers only weakly. */
    private static final Logger HOLDER_LOG = Logger.getLogger("io.dagnats.leases.holder.LeaseHolder");
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

    private final ManualScheduler clock = new ManualScheduler();
    private final AtomicReference<Connection.Status> nats = new AtomicReference<>(Connection.Status.CONNECTED);
    private final HealthWatch watch = new HealthWatch(new HolderId("watched-1"), nats::get, REQUEST_TIMEOUT, clock);
    private final List<LogRecord> lines = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord line) {
            lines.add(line);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureLines() {
        HOLDER_LOG.addHandler(capture);
    }

    @AfterEach
    void stopCapturing() {
        HOLDER_LOG.removeHandler(capture);
    }

    @Test
    void withNoKeyKeptTheThresholdIsTheRequestTimeout() {
        watch.unanswered(new TimeoutException());
        clock.advance(Duration.ofSeconds(4));
        assertEquals(new HolderHealth.Healthy(), watch.health());

        clock.advance(Duration.ofMillis(1001));
        assertEquals(Cause.DAGNATS_NOT_ANSWERING, ((HolderHealth.Unhealthy) watch.health()).cause());
    }

    @Test
    void theThresholdIsTheShortestKeptTtlUntilThatKeyIsDropped() {
        watch.kept(new LeaseKey("slow"), Duration.ofSeconds(30));
        watch.kept(new LeaseKey("fast"), Duration.ofSeconds(2));
        watch.unanswered(new TimeoutException());
        clock.advance(Duration.ofMillis(2500));
        assertEquals(false, watch.health().isHealthy());

        watch.dropped(new LeaseKey("fast"));
        assertEquals(true, watch.health().isHealthy());
    }

    @Test
    void anUnansweredCallWhileNatsIsNotConnectedBlamesNatsAndSaysTheStatus() {
        nats.set(Connection.Status.RECONNECTING);
        watch.unanswered(new TimeoutException());
        clock.advance(Duration.ofSeconds(6));
        watch.unanswered(new IllegalStateException("Connection is Closed"));

        assertEquals(new HolderHealth.Unhealthy(Cause.NATS_DISCONNECTED, Duration.ofSeconds(6),
                "connection RECONNECTING, IllegalStateException: Connection is Closed"), watch.health());
        assertEquals(1, lines.size());
        assertEquals("holder watched-1 cannot reach NATS: its connection is down and calls have gone unanswered for"
                + " 6000 ms (connection RECONNECTING, IllegalStateException: Connection is Closed); no lease can be"
                + " acquired or renewed until it reconnects", lines.get(0).getMessage());
        assertNull(lines.get(0).getThrown());
    }

    @Test
    void noRespondersIsNamedSinceJnatsGivesItNoMessage() {
        assertEquals("no responders (CancellationException)", HealthWatch.describe(new CancellationException()));
        assertEquals("TimeoutException", HealthWatch.describe(new TimeoutException()));
    }

    @Test
    void oneStuckLineAndOneRecoveredLineUnderTheHoldersLogger() {
        for (int call = 0; call < 20; call++) {
            watch.unanswered(new TimeoutException());
            clock.advance(Duration.ofMillis(400));
        }
        watch.answered();
        watch.answered();

        assertEquals(List.of("WARNING holder watched-1 cannot reach dagnats", "INFO holder watched-1 reaches dagnats"),
                lines.stream().map(line -> line.getLevel() + " " + line.getMessage().split(":")[0]
                        .replace(" again after 8000 ms unanswered", "")).toList());
        assertEquals(true, watch.health().isHealthy());
    }
}
