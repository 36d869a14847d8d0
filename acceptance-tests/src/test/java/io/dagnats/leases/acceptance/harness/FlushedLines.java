package io.dagnats.leases.acceptance.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/** Where an {@link OwnershipLog} of another process writes: a file it appends to and flushes line by line. */
final class FlushedLines {

    private FlushedLines() {
    }

    /** Lines appended to {@code file} and flushed one by one, so a killed process leaves every line it wrote. */
    static Consumer<String> appendingTo(Path file) {
        Writer writer;
        try {
            writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException cannotOpen) {
            throw new UncheckedIOException(cannotOpen);
        }
        // Several watches of one process (a shard set's keys) write to the one file: a line at a time.
        return line -> {
            synchronized (writer) {
                try {
                    writer.write(line);
                    writer.write('\n');
                    writer.flush();
                } catch (IOException cannotWrite) {
                    throw new UncheckedIOException(cannotWrite);
                }
            }
        };
    }
}
