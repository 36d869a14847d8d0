package io.dagnats.leases.acceptance.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness's store copy: what is put back is exactly what was copied, nothing written since survives. */
class StoreRollbackTest {

    @TempDir
    Path root;

    @Test
    void aRestoredTreeHoldsExactlyTheCopiedFilesAndNothingWrittenSince() throws IOException {
        Path store = Files.createDirectories(root.resolve("store/jetstream/$G/streams/KV_leases/msgs"));
        Path live = root.resolve("store/jetstream");
        Files.writeString(store.resolve("1.blk"), "before the copy");
        Files.writeString(live.resolve("meta.inf"), "meta");
        Path copy = root.resolve("copy");
        StoreRollback.replaceTree(copy, live);
        Map<String, String> copied = contents(live);

        // Written after the copy: a block grown, a new block, a new directory, a file removed.
        Files.writeString(store.resolve("1.blk"), "after the copy");
        Files.writeString(store.resolve("2.blk"), "a later block");
        Files.writeString(Files.createDirectories(live.resolve("$G/streams/OTHER")).resolve("x"), "x");
        Files.delete(live.resolve("meta.inf"));
        StoreRollback.replaceTree(live, copy);

        assertEquals(copied, contents(live));
        assertEquals(Map.of("$G/streams/KV_leases/msgs/1.blk", "before the copy", "meta.inf", "meta"), copied);
    }

    /** Every file under {@code directory}, by relative path, with its text. */
    private static Map<String, String> contents(Path directory) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(directory)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(directory.relativize(file).toString(), Files.readString(file));
            }
        }
        return files;
    }
}
