package io.dagnats.leases.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.fencing.jdbc.FencedWriter;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A process restarted with its own holder id is granted its old self's last write, so the
 * tenure it begins starts at that revision: only its confirming renew's fence is above every
 * revision of the old process. {@link FencedWriter} presents the tenure's current fence, as
 * the guide says ("send the lease revision with every write") and every other part of the
 * holder library does; presenting the start (tried during the review of issue 12) let the old
 * process's last write through after its successor had written.
 */
class FencedWriterRestartAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(4);
    private static final String HOLDER = "review12b-restarted";

    private static PostgresProcess postgres;
    private static java.sql.Connection database;
    private final FencedWriter writer = new FencedWriter();

    @BeforeAll
    static void startPostgres() throws SQLException {
        postgres = PostgresProcess.start();
        database = postgres.connect();
        FencedWriter.createTable(database);
        try (Statement statement = database.createStatement()) {
            statement.execute("CREATE TABLE review_state (k text PRIMARY KEY, value text)");
        }
    }

    @AfterAll
    static void stopPostgres() throws SQLException {
        try {
            database.close();
        } finally {
            postgres.close();
        }
    }

    private static FencedWriter.Write save(String key, String value) {
        return connection -> {
            try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO review_state VALUES (?, ?) "
                    + "ON CONFLICT (k) DO UPDATE SET value = excluded.value")) {
                upsert.setString(1, key);
                upsert.setString(2, value);
                upsert.executeUpdate();
            }
        };
    }

    /**
     * The old process pauses (GC) just after a renew, holding a write prepared with its current fence,
     * as a forward handler is told to. It is restarted under the same holder id (a pod with a stable
     * name): the new process is granted the earlier write, renews, and writes through the tenure
     * overload. The old one wakes past its own deadline (its own record says it no longer owns the
     * key) and its write goes through.
     */
    @Test
    void aPausedProcessRestartedUnderItsOwnHolderIdCannotWriteAfterItsSuccessor() throws Exception {
        String key = "review12b-restart";
        CountDownLatch wake = new CountDownLatch(1);
        AtomicReference<Tenure> held = new AtomicReference<>();
        try (Connection oldNats = Nats.connect(service.nats.url());
                LeaseHolder old = LeaseHolder.builder(oldNats).holderId(HOLDER).build()) {
            KeptLease oldLease = old.keep(key, TTL, new OwnershipListener() {
                @Override
                public void becameOwner(Tenure tenure) {
                }

                @Override
                public void stoppedOwning(StopReason reason) {
                }

                @Override
                public void renewed(Tenure tenure) {
                    // A GC pause on the holder's thread right after a renew: nothing is renewed after this.
                    if (held.compareAndSet(null, tenure)) {
                        try {
                            wake.await();
                        } catch (InterruptedException interrupted) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            });
            try {
                Tenure stale = Polling.until(Duration.ofSeconds(20), "the old process to renew once", held::get,
                        tenure -> tenure != null);

                Tenure successors;
                try (Connection newNats = Nats.connect(service.nats.url());
                        LeaseHolder restarted = LeaseHolder.builder(newNats).holderId(HOLDER).build()) {
                    KeptLease newLease = restarted.keep(key, TTL, OwnershipListener.NONE);
                    Polling.until(Duration.ofSeconds(20), "the restarted process to own", newLease::isOwner, owner -> owner);
                    successors = newLease.tenure().orElseThrow();
                    assertEquals(FencedWriter.Written.class,
                            writer.write(database, successors, save(key, "by the restarted process")).getClass());

                    Polling.until(TTL.plusSeconds(5), "the old process's own deadline to pass",
                            () -> stale.actingAsOwner(MonotonicClock.SYSTEM.nanoTime()), acting -> !acting);
                    FencedWriter.Outcome late = writer.write(database, stale.key(), stale.fence(),
                            save(key, "by the old process, held through its pause"));

                    assertFalse(late.written(), "the old process, past its own deadline, wrote with fence " + stale.fence()
                            + " after its successor (start " + successors.start() + ", fence " + successors.fence()
                            + ") wrote with its start: " + late);
                }
            } finally {
                wake.countDown();
                oldLease.close();
            }
        }
    }
}
