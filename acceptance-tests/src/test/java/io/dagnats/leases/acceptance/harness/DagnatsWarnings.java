package io.dagnats.leases.acceptance.harness;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The lines dagnats logs at WARNING or above while open, from every instance in this JVM: what an
 * operator reading the log would see. Closing stops listening.
 */
public final class DagnatsWarnings implements AutoCloseable {

    /** dagnats' loggers; held here, since java.util.logging keeps loggers only weakly. */
    private static final Logger DAGNATS_LOG = Logger.getLogger("io.dagnats.leases");

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord line) {
            if (line.getLevel().intValue() >= Level.WARNING.intValue()) {
                lines.add(line.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private DagnatsWarnings() {
        DAGNATS_LOG.addHandler(capture);
    }

    public static DagnatsWarnings capture() {
        return new DagnatsWarnings();
    }

    /** The lines logged since opened or last cleared, oldest first. */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** The lines that contain {@code text}. */
    public List<String> containing(String text) {
        return lines.stream().filter(line -> line.contains(text)).toList();
    }

    public void clear() {
        lines.clear();
    }

    @Override
    public void close() {
        DAGNATS_LOG.removeHandler(capture);
    }
}
