package io.dagnats.leases.demo;

import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Tenure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * One replica's own record of when it believed it owned each shard, on
 * {@link System#nanoTime()} (one clock for every process on this machine), a
 * line per change, flushed at once so a killed process leaves every line:
 *
 * <pre>
 * &lt;nanos&gt; &lt;shard&gt; &lt;holder&gt; own &lt;tenure-start&gt; &lt;deadline-nanos&gt;
 * &lt;nanos&gt; &lt;shard&gt; &lt;holder&gt; free
 * </pre>
 *
 * A start is dated when the confirming renew was sent (deadline − TTL + margin;
 * the belief cannot be older), an end when the listener heard it (before any
 * release is sent). Every 20 ms it also writes a renewed deadline, so a killed
 * replica's belief is counted up to its last known deadline.
 */
final class ShardLog implements AutoCloseable {

    private final Writer writer;
    private final String holder;
    private final Duration ttl;
    private final IntFunction<Optional<Tenure>> tenure;
    private final Map<Integer, Tenure> seen = new HashMap<>();
    private volatile Thread sampler;

    ShardLog(Path file, String holder, Duration ttl, IntFunction<Optional<Tenure>> tenure) {
        try {
            this.writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException cannotOpen) {
            throw new UncheckedIOException(cannotOpen);
        }
        this.holder = holder;
        this.ttl = ttl;
        this.tenure = tenure;
    }

    synchronized void began(int shard, Tenure confirmed) {
        long sent = confirmed.deadlineNanos() - ttl.toNanos()
                + Tenure.safetyMargin(new LeaseTtl(ttl.toMillis())).toNanos();
        write(sent + " " + shard + " " + holder + " own " + confirmed.start().revision() + " "
                + confirmed.deadlineNanos());
        seen.put(shard, confirmed);
    }

    synchronized void ended(int shard) {
        if (seen.remove(shard) != null) {
            write(System.nanoTime() + " " + shard + " " + holder + " free");
        }
    }

    /** Samples the deadlines of the shards owned, every 20 ms. */
    void start(int shards) {
        sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                for (int shard = 0; shard < shards; shard++) {
                    renewed(shard);
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException stopped) {
                    return;
                }
            }
        }, "shard-log");
        sampler.setDaemon(true);
        sampler.start();
    }

    private synchronized void renewed(int shard) {
        Tenure known = seen.get(shard);
        Optional<Tenure> now = tenure.apply(shard);
        if (known != null && now.isPresent() && now.get().start().equals(known.start())
                && now.get().deadlineNanos() > known.deadlineNanos()) {
            write(System.nanoTime() + " " + shard + " " + holder + " own " + now.get().start().revision() + " "
                    + now.get().deadlineNanos());
            seen.put(shard, now.get());
        }
    }

    private void write(String line) {
        try {
            writer.write(line);
            writer.write('\n');
            writer.flush();
        } catch (IOException cannotWrite) {
            throw new UncheckedIOException(cannotWrite);
        }
    }

    @Override
    public synchronized void close() {
        if (sampler != null) {
            sampler.interrupt();
        }
        try {
            writer.close();
        } catch (IOException ignored) {
            // the lines are flushed already
        }
    }
}
