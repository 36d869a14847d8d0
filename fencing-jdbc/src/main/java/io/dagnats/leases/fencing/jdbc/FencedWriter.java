package io.dagnats.leases.fencing.jdbc;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/**
 * Writes to a database only while the writer's fence is the highest the
 * database has seen for its lease key, checked in the same transaction as the
 * write. A process that was paused (GC, VM freeze, partition) and wakes up still
 * believing it owns the lease presents an older fence than its successor did,
 * and the database refuses its write: no clock, no renew, no check made before
 * the pause can do that.
 *
 * <p>One transaction: raise the key's row in {@value #TABLE} to this fence
 * ({@link #RAISE_FENCE}, which locks the row until commit, so two writers of one
 * key take turns), run the caller's write, commit. If the row holds a higher fence
 * the caller's write never runs and the transaction is rolled back. Fences are
 * unsigned 64-bit integers; the column is {@code numeric(20)}, which holds all of
 * them and compares them as numbers, so one above 2^63-1 is no special case.
 *
 * <p>{@code INSERT ... ON CONFLICT DO UPDATE ... WHERE} is PostgreSQL's (9.5 and
 * newer; CockroachDB and SQLite read it too). The writer runs its own transaction
 * on the connection it is given and puts its auto-commit back afterwards: do not
 * hand it a connection in the middle of another transaction.
 */
public final class FencedWriter {

    /** The table of the highest fence seen per lease key. */
    public static final String TABLE = "dagnats_fences";

    /** Creates {@value #TABLE} unless it exists. */
    public static final String CREATE_TABLE = "CREATE TABLE IF NOT EXISTS " + TABLE + " ("
            + "lease_key text PRIMARY KEY, "
            + "fence numeric(20) NOT NULL CHECK (fence BETWEEN 1 AND 18446744073709551615))";

    /** Raises the key's fence to the given one; updates no row when the stored fence is higher. */
    public static final String RAISE_FENCE = "INSERT INTO " + TABLE + " AS f (lease_key, fence) VALUES (?, ?) "
            + "ON CONFLICT (lease_key) DO UPDATE SET fence = excluded.fence WHERE f.fence <= excluded.fence";

    private static final String HIGHEST_FENCE = "SELECT fence FROM " + TABLE + " WHERE lease_key = ?";

    /** The caller's own statements, run inside the fenced transaction on its connection. */
    @FunctionalInterface
    public interface Write {
        void run(Connection connection) throws SQLException;
    }

    /** What became of a write: keep it, it is the only word on whether the write happened. */
    public sealed interface Outcome {
        boolean written();
    }

    /** The write is committed, with its fence now the key's highest. */
    public record Written(LeaseKey key, Fence fence) implements Outcome {
        @Override
        public boolean written() {
            return true;
        }
    }

    /**
     * Nothing was written: the database had seen {@code highest}, above the fence
     * presented. Either a newer owner has written, and the writer is a stale owner
     * that must stop acting as one, or (when this process still acts as owner with a
     * fence at or above {@code highest}) a write of its own under a fence from a later
     * renew got there first: read the tenure again and write with it.
     */
    public record Refused(LeaseKey key, Fence presented, Fence highest) implements Outcome {
        @Override
        public boolean written() {
            return false;
        }
    }

    /** Creates the fence table on this connection unless it exists. */
    public static void createTable(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(CREATE_TABLE);
        }
    }

    /**
     * {@link #write(Connection, LeaseKey, Fence, Write)} with the tenure's key and current
     * fence. Not its start: a process restarted with its own holder id is granted its old
     * self's last write, so only its current fence (a renew of its own) is above every
     * revision the old process could still present.
     */
    public Outcome write(Connection connection, Tenure tenure, Write write) throws SQLException {
        return write(connection, tenure.key(), tenure.fence(), write);
    }

    /**
     * Runs {@code write} and commits it only if {@code fence} is at or above the
     * highest fence the database has seen for {@code key}, in one transaction.
     * If {@code write} throws, everything is rolled back and the exception is thrown.
     */
    public Outcome write(Connection connection, LeaseKey key, Fence fence, Write write) throws SQLException {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(fence, "fence");
        Objects.requireNonNull(write, "write");
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            return raiseFence(connection, key, fence)
                    ? writeAndCommit(connection, key, fence, write)
                    : refuse(connection, key, fence);
        } catch (Throwable failed) {
            // Anything at all, an Error too: putting auto-commit back below would commit the transaction.
            try {
                connection.rollback();
            } catch (SQLException rollbackFailed) {
                failed.addSuppressed(rollbackFailed);
            }
            throw failed;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    private static boolean raiseFence(Connection connection, LeaseKey key, Fence fence) throws SQLException {
        try (PreparedStatement raise = connection.prepareStatement(RAISE_FENCE)) {
            raise.setString(1, key.value());
            raise.setBigDecimal(2, new BigDecimal(fence.toString())); // the unsigned decimal form
            return raise.executeUpdate() == 1;
        }
    }

    private static Outcome writeAndCommit(Connection connection, LeaseKey key, Fence fence, Write write)
            throws SQLException {
        write.run(connection);
        connection.commit();
        return new Written(key, fence);
    }

    private static Outcome refuse(Connection connection, LeaseKey key, Fence fence) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(HIGHEST_FENCE)) {
            select.setString(1, key.value());
            try (ResultSet row = select.executeQuery()) {
                row.next(); // the row exists: it is what refused the fence
                Fence highest = fenceOf(row.getBigDecimal(1).toBigIntegerExact());
                connection.rollback();
                return new Refused(key, fence, highest);
            }
        }
    }

    /** The low 64 bits of a value of at most 2^64-1: the fence, read as unsigned. */
    private static Fence fenceOf(BigInteger unsigned) {
        return new Fence(unsigned.longValue());
    }
}
