package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.fencing.jdbc.FencedWriter;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A fenced write in a real PostgreSQL, through {@link FencedWriter}: fences compare unsigned
 * over the whole 64-bit range, and a write that fails leaves neither its rows nor its fence.
 */
class FencedWriteLandsWholeOrNotAtAllAcceptanceTest extends FencedWriterDatabase {

    @Test
    void fencesCompareUnsignedOverTheWhole64BitRange() throws SQLException {
        LeaseKey key = new LeaseKey("pg-top-of-range");
        Fence aboveSignedMax = new Fence(Long.MIN_VALUE + 1); // 2^63 + 1
        Fence small = new Fence(5);
        Fence largest = new Fence(-1L); // 2^64 - 1

        assertTrue(writer.write(database, key, aboveSignedMax, save(key.value(), "high", "a")).written());
        assertEquals(new FencedWriter.Refused(key, small, aboveSignedMax),
                writer.write(database, key, small, save(key.value(), "low", "b")));
        assertTrue(writer.write(database, key, largest, save(key.value(), "highest", "c")).written());

        assertEquals(List.of("highest", "c"), shardRow(key.value()));
        assertEquals(List.of("18446744073709551615"), fenceRow(key.value()));
    }

    /**
     * Review of issue 12 (c): {@code write} rolls back only on SQLException and RuntimeException;
     * for anything else its {@code finally} puts auto-commit back, which by JDBC's rule (and
     * pgjdbc's) commits the open transaction: half of the user's write, under a raised fence,
     * while the caller was told it failed.
     */
    @Test
    void aWriteThatFailsWithAnErrorLeavesNeitherItsRowsNorItsFence() throws SQLException {
        LeaseKey key = new LeaseKey("pg-write-failing-with-an-error");
        assertTrue(writer.write(database, key, new Fence(10), save(key.value(), "kept", "a")).written());

        AssertionError failure = assertThrows(AssertionError.class, () -> writer.write(database, key, new Fence(20),
                connection -> {
                    save(key.value(), "half done", "b").run(connection);
                    throw new AssertionError("the user's write failed with an Error");
                }));

        assertEquals("the user's write failed with an Error", failure.getMessage());
        assertEquals(List.of("kept", "a"), shardRow(key.value()), "the failed write was committed");
        assertEquals(List.of("10"), fenceRow(key.value()));
    }

    @Test
    void aWriteThatFailsLeavesNeitherItsRowsNorItsFence() throws SQLException {
        LeaseKey key = new LeaseKey("pg-failing-write");
        assertTrue(writer.write(database, key, new Fence(10), save(key.value(), "kept", "a")).written());

        SQLException failure = assertThrows(SQLException.class, () -> writer.write(database, key, new Fence(20),
                connection -> {
                    save(key.value(), "half done", "b").run(connection);
                    throw new SQLException("the user's write failed");
                }));

        assertEquals("the user's write failed", failure.getMessage());
        assertEquals(List.of("kept", "a"), shardRow(key.value()));
        assertEquals(List.of("10"), fenceRow(key.value()));
        assertTrue(database.getAutoCommit(), "the connection's auto-commit is put back");
    }
}
