package io.dagnats.leases.acceptance.holder;

import io.dagnats.leases.acceptance.harness.PostgresProcess;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.fencing.jdbc.FencedWriter;
import io.nats.client.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A real PostgreSQL beside the shared service, for the tests of {@link FencedWriter}: the
 * database, its rows and what its backends wait on. A base class so that the tests, split by the
 * rule they prove, moved without being rewritten.
 */
abstract class FencedWriterDatabase extends SharedServiceTest {

    static final Duration TTL = Duration.ofSeconds(2);

    static PostgresProcess postgres;
    static java.sql.Connection database;
    final FencedWriter writer = new FencedWriter();

    @BeforeAll
    static void startPostgres() throws SQLException {
        postgres = PostgresProcess.start();
        database = postgres.connect();
        FencedWriter.createTable(database);
        try (Statement statement = database.createStatement()) {
            statement.execute("CREATE TABLE shard_state (shard text PRIMARY KEY, value text, written_by text)");
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

    /** The user's write: one row per shard, as the owner of the shard's lease. */
    static FencedWriter.Write save(String shard, String value, String writer) {
        return connection -> {
            try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO shard_state VALUES (?, ?, ?) "
                    + "ON CONFLICT (shard) DO UPDATE SET value = excluded.value, written_by = excluded.written_by")) {
                upsert.setString(1, shard);
                upsert.setString(2, value);
                upsert.setString(3, writer);
                upsert.executeUpdate();
            }
        };
    }

    static List<String> row(String sql, String key) throws SQLException {
        try (PreparedStatement select = database.prepareStatement(sql)) {
            select.setString(1, key);
            try (ResultSet result = select.executeQuery()) {
                if (!result.next()) {
                    return List.of();
                }
                int columns = result.getMetaData().getColumnCount();
                String[] values = new String[columns];
                for (int i = 0; i < columns; i++) {
                    values[i] = result.getString(i + 1);
                }
                return List.of(values);
            }
        }
    }

    static int backendPid(java.sql.Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT pg_backend_pid()")) {
            result.next();
            return result.getInt(1);
        }
    }

    /** What the backend {@code pid} waits on now ({@code Lock} for a row or transaction lock), or "". */
    static String waitEvent(int pid) {
        try (PreparedStatement select = database.prepareStatement(
                "SELECT coalesce(wait_event_type, '') FROM pg_stat_activity WHERE pid = ?")) {
            select.setInt(1, pid);
            try (ResultSet result = select.executeQuery()) {
                return result.next() ? result.getString(1) : "";
            }
        } catch (SQLException failed) {
            throw new IllegalStateException(failed);
        }
    }

    static List<String> shardRow(String shard) throws SQLException {
        return row("SELECT value, written_by FROM shard_state WHERE shard = ?", shard);
    }

    static List<String> fenceRow(String key) throws SQLException {
        return row("SELECT fence FROM " + FencedWriter.TABLE + " WHERE lease_key = ?", key);
    }
}
