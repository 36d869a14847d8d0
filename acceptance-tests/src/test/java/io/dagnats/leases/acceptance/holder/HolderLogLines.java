package io.dagnats.leases.acceptance.holder;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** What the holder library logs at INFO or above while open: the lines an operator reads. */
final class HolderLogLines implements AutoCloseable {
    /** Held here: java.util.logging keeps loggers only weakly. */
    private static final Logger HOLDER_LOG = Logger.getLogger("io.dagnats.leases.holder");
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord line) {
            lines.add(line.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    HolderLogLines() {
        HOLDER_LOG.addHandler(capture);
    }

    List<String> all() {
        return List.copyOf(lines);
    }

    List<String> containing(String text) {
        return lines.stream().filter(line -> line.contains(text)).toList();
    }

    @Override
    public void close() {
        HOLDER_LOG.removeHandler(capture);
    }
}
