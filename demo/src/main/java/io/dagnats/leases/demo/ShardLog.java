package io.dagnats.leases.demo;

import io.dagnats.leases.domain.Tenure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
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
 * A sampler looks at every shard every 5 ms. A start is dated at its last look
 * that saw the shard not owned (the belief cannot be older; nothing is computed
 * from the holder library's deadline arithmetic), an end when the listener heard
 * it (before any release is sent). The sampler also writes each renewed deadline,
 * so a killed replica's belief is counted up to its last known deadline.
 */
final class ShardLog implements AutoCloseable {

    private final Writer writer;
    private final String holder;
    private final IntFunction<Optional<Tenure>> tenure;
    private final Map<Integer, Tenure> seen = new HashMap<>();
    /** Per shard, when the last look that saw it not owned began. */
    private long[] lastSeenFree = new long[0];
    private volatile Thread sampler;

    ShardLog(Path file, String holder, IntFunction<Optional<Tenure>> tenure) {
        try {
            this.writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException cannotOpen) {
            throw new UncheckedIOException(cannotOpen);
        }
        this.holder = holder;
        this.tenure = tenure;
    }

    synchronized void began(int shard, Tenure confirmed) {
        write(lastSeenFree[shard] + " " + shard + " " + holder + " own " + confirmed.start().revision() + " "
                + confirmed.deadlineNanos());
        seen.put(shard, confirmed);
    }

    synchronized void ended(int shard) {
        if (seen.remove(shard) != null) {
            write(System.nanoTime() + " " + shard + " " + holder + " free");
        }
    }

    /**
     * Starts looking at every shard every 5 ms, and returns after the first look: call it
     * before the replica joins, so its first start is dated from a look, not from here.
     */
    void start(int shards) throws InterruptedException {
        synchronized (this) {
            lastSeenFree = new long[shards];
            Arrays.fill(lastSeenFree, System.nanoTime());
        }
        CountDownLatch looked = new CountDownLatch(1);
        sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                for (int shard = 0; shard < shards; shard++) {
                    look(shard);
                }
                looked.countDown();
                try {
                    Thread.sleep(5);
                } catch (InterruptedException stopped) {
                    return;
                }
            }
        }, "shard-log");
        sampler.setDaemon(true);
        sampler.start();
        looked.await();
    }

    private void look(int shard) {
        long lookedAt = System.nanoTime();
        // Asked outside this log's lock: the shard set may hold its own while it calls began.
        Optional<Tenure> now = tenure.apply(shard);
        record(shard, lookedAt, now);
    }

    private synchronized void record(int shard, long lookedAt, Optional<Tenure> now) {
        if (now.isEmpty()) {
            lastSeenFree[shard] = lookedAt;
        }
        Tenure known = seen.get(shard);
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
