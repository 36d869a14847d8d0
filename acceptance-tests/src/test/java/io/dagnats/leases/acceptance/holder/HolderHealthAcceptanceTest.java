package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.HolderHealth;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A holder that cannot reach dagnats, or NATS, says so: one log line once it has been
 * stuck for longer than its shortest TTL, naming which of the two it cannot reach, and
 * one when it reaches dagnats again. Real nats-server; dagnats started late.
 */
class HolderHealthAcceptanceTest {

    private static final Duration TTL = Duration.ofSeconds(2);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);
    /** The holder's logger; held here, since java.util.logging keeps loggers only weakly. */
    private static final Logger HOLDER_LOG = Logger.getLogger("io.dagnats.leases.holder.LeaseHolder");

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
    private NatsServerProcess nats;
    private DagnatsServer dagnats;
    private Connection connection;
    private LeaseHolder holder;

    @BeforeEach
    void startNatsWithoutDagnats() throws Exception {
        HOLDER_LOG.addHandler(capture);
        nats = NatsServerProcess.modern();
        connection = Nats.connect(nats.url());
    }

    @AfterEach
    void stop() throws Exception {
        HOLDER_LOG.removeHandler(capture);
        try {
            if (holder != null) {
                holder.close();
            }
            connection.close();
            if (dagnats != null) {
                dagnats.close();
            }
        } finally {
            nats.close();
        }
    }

    @Test
    void aStuckHolderLogsOnceWhichItCannotReachAndOnceWhenItRecovers() throws Exception {
        holder = LeaseHolder.builder(connection).holderPrefix("stuck").requestTimeout(REQUEST_TIMEOUT).build();
        String id = holder.id().value();
        Instant kept = Instant.now();
        KeptLease lease = holder.keep("health-key", TTL, new OwnershipListener() {
            @Override
            public void becameOwner(Tenure tenure) {
            }

            @Override
            public void stoppedOwning(StopReason reason) {
            }
        });

        // NATS is up, dagnats is not: every acquire goes unanswered.
        LogRecord stuck = Polling.until(TTL.plusSeconds(10), "a line saying dagnats cannot be reached",
                () -> line(id, "cannot reach dagnats"), found -> found != null);
        assertEquals(Level.WARNING, stuck.getLevel());
        assertTrue(stuck.getThrown() == null, "a stack trace with the line");
        Duration saidAfter = Duration.between(kept, stuck.getInstant());
        assertTrue(saidAfter.compareTo(TTL) >= 0, "said so after " + saidAfter + ", within a TTL");
        HolderHealth.Unhealthy noDagnats = assertInstanceOf(HolderHealth.Unhealthy.class, holder.health());
        assertEquals(HolderHealth.Cause.DAGNATS_NOT_ANSWERING, noDagnats.cause());
        assertTrue(noDagnats.unansweredFor().compareTo(TTL) > 0, noDagnats.toString());

        dagnats = DagnatsServer.start(Settings.forUrl(nats.url()));
        LogRecord recovered = Polling.until(TTL.plusSeconds(10), "a line saying dagnats answers again",
                () -> line(id, "reaches dagnats again"), found -> found != null);
        assertEquals(Level.INFO, recovered.getLevel());
        assertTrue(holder.health().isHealthy(), holder.health().toString());
        Polling.until(TTL.plusSeconds(5), "ownership", lease::isOwner, owner -> owner);
        assertEquals(1, lines(id, "cannot reach dagnats").size(), "the stuck line more than once: " + lines(id, ""));

        nats.close();
        LogRecord natsDown = Polling.until(TTL.plusSeconds(10), "a line saying NATS cannot be reached",
                () -> line(id, "cannot reach NATS"), found -> found != null);
        assertEquals(Level.WARNING, natsDown.getLevel());
        assertEquals(HolderHealth.Cause.NATS_DISCONNECTED,
                assertInstanceOf(HolderHealth.Unhealthy.class, holder.health()).cause());
        assertEquals(1, lines(id, "reaches dagnats again").size(), "the recovery line more than once: " + lines(id, ""));
    }

    private LogRecord line(String holderId, String saying) {
        List<LogRecord> found = lines(holderId, saying);
        return found.isEmpty() ? null : found.get(0);
    }

    private List<LogRecord> lines(String holderId, String saying) {
        return lines.stream()
                .filter(line -> line.getMessage().contains(holderId) && line.getMessage().contains(saying))
                .toList();
    }
}
