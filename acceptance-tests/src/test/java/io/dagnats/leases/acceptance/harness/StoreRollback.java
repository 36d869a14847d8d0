package io.dagnats.leases.acceptance.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A nats-server's store put back to an earlier copy, as an operator restoring a backup of the
 * store directory, or a disk snapshot rolled back, would do it. {@link #takeCopy} stops the
 * server cleanly (SIGTERM: it flushes its store), copies its JetStream directory and starts it
 * again; {@link #killAndRestore} kills it (kill -9: nothing flushed, no goodbye) and puts that
 * copy back in place of everything written since, leaving it down, so the caller starts it again
 * together with whatever else it restarts.
 *
 * <p>The restored stream is the same stream (same creation time and first sequence), so nothing
 * about its identity tells it apart; only its last sequence went back. Writes acknowledged after
 * the copy are gone, and the next writes get their sequences again.
 */
public final class StoreRollback implements AutoCloseable {

    private final NatsServerProcess server;
    private final Path copy;
    private boolean copied;

    private StoreRollback(NatsServerProcess server, Path copy) {
        this.server = server;
        this.copy = copy;
    }

    public static StoreRollback of(NatsServerProcess server) {
        try {
            return new StoreRollback(server, Files.createTempDirectory("dagnats-store-copy-"));
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    /** Stops the server cleanly, copies its store as it is then, and starts it again on the same store. */
    public void takeCopy() {
        server.stop();
        replaceTree(copy, server.jetStreamDirectory());
        copied = true;
        server.startAgain();
    }

    /** Kills the server and puts the copy back in place of its store; the server stays down. */
    public void killAndRestore() {
        if (!copied) {
            throw new IllegalStateException("no copy of the store taken yet");
        }
        server.kill();
        replaceTree(server.jetStreamDirectory(), copy);
    }

    /** Makes {@code target} an exact copy of {@code source}: whatever {@code target} held before is gone. */
    static void replaceTree(Path target, Path source) {
        removeTree(target);
        try (Stream<Path> files = Files.walk(source)) {
            for (Path from : files.toList()) {
                Path to = target.resolve(source.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    private static void removeTree(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            List<Path> deepestFirst = files.sorted(Comparator.reverseOrder()).toList();
            for (Path path : deepestFirst) {
                Files.delete(path);
            }
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    @Override
    public void close() {
        removeTree(copy);
    }
}
