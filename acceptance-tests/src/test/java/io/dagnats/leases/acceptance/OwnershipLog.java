package io.dagnats.leases.acceptance;

import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeptLease;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A holder's own record of when it believed it owned its keys: a sampler asks
 * each {@link KeptLease} for its tenure, as the user's code would before acting,
 * about every half millisecond on {@link System#nanoTime()} (one clock for every
 * process on this machine), and writes a line whenever the answer changes:
 *
 * <pre>
 * &lt;nanos&gt; &lt;key&gt; &lt;holder&gt; &lt;incarnation&gt; own &lt;tenure-start&gt; &lt;fence&gt; &lt;deadline-nanos&gt;
 * &lt;nanos&gt; &lt;key&gt; &lt;holder&gt; &lt;incarnation&gt; free
 * </pre>
 *
 * It never looks at the service or at any other holder: {@link OwnershipHistory}
 * judges safety from these lines alone.
 */
final class OwnershipLog implements AutoCloseable {

    private final String incarnation;
    private final Consumer<String> sink;
    /** What the last look at a lease saw, and when that look began. */
    private record Seen(Optional<Tenure> tenure, long lookedAtNanos) {
    }

    /** One key's belief in one holder: what the user's code would ask before acting. */
    private record Belief(String key, String holder, Supplier<Optional<Tenure>> tenure) {
    }

    private final Map<Belief, Seen> watched = new ConcurrentHashMap<>();
    private final Thread sampler;
    private volatile boolean running = true;

    private OwnershipLog(String incarnation, Consumer<String> sink) {
        this.incarnation = incarnation;
        this.sink = sink;
        this.sampler = new Thread(this::sample, "ownership-log-" + incarnation);
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Lines appended to {@code file} and flushed one by one, so a killed process leaves every line it wrote. */
    static OwnershipLog toFile(Path file, String incarnation) {
        Writer writer;
        try {
            writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException cannotOpen) {
            throw new UncheckedIOException(cannotOpen);
        }
        return new OwnershipLog(incarnation, line -> {
            try {
                writer.write(line);
                writer.write('\n');
                writer.flush();
            } catch (IOException cannotWrite) {
                throw new UncheckedIOException(cannotWrite);
            }
        });
    }

    /** Lines kept in memory, for holders in the test's own process. */
    static OwnershipLog inMemory(String incarnation, List<String> lines) {
        return new OwnershipLog(incarnation, lines::add);
    }

    static List<String> lines() {
        return new CopyOnWriteArrayList<>();
    }

    void watch(KeptLease lease) {
        watch(lease.key().value(), lease.holder().value(), lease::tenure);
    }

    /** A key whose tenure {@code tenure} reads, as a shard set's {@code tenure(shard)} does. */
    void watch(String key, String holder, Supplier<Optional<Tenure>> tenure) {
        watched.put(new Belief(key, holder, tenure), new Seen(Optional.empty(), System.nanoTime()));
    }

    /**
     * Times are stretched to the conservative side: a tenure that appears is dated
     * from when the previous look, which did not see it, began (it cannot have begun
     * earlier); one that disappears is dated after the look that no longer saw it.
     * A sampler that stalls therefore widens windows, never hides an overlap.
     */
    private void sample() {
        while (running) {
            lookOnce();
            LockSupport.parkNanos(500_000);
        }
    }

    private void lookOnce() {
        for (Map.Entry<Belief, Seen> entry : watched.entrySet()) {
            synchronized (entry.getKey()) {
                Belief lease = entry.getKey();
                long lookedAt = System.nanoTime();
                Optional<Tenure> now = lease.tenure().get();
                Seen before = entry.getValue();
                if (!now.equals(before.tenure())) {
                    long at = now.isPresent() && before.tenure().isEmpty() ? before.lookedAtNanos() : System.nanoTime();
                    sink.accept(line(at, lease, now));
                }
                entry.setValue(new Seen(now, lookedAt));
            }
        }
    }

    /**
     * The holder said it began owning {@code key} under {@code confirmed}, the tenure its
     * listener's {@code becameOwner} (or a shard set's {@code shardAssigned}) was given,
     * kept with {@code ttl}. The belief cannot have begun before the renew that confirmed
     * the grant was sent, which that tenure's deadline names (deadline − TTL + margin,
     * {@link Tenure#begin}); so when the sampler has not seen it yet, it is written now,
     * dated no earlier than that: a sampler stalled in a JVM that just started cannot
     * stretch the start back over the previous owner's release.
     */
    void began(String key, String holder, Tenure confirmed, Duration ttl) {
        long sent = confirmed.deadlineNanos() - ttl.toNanos()
                + Tenure.safetyMargin(new LeaseTtl(ttl.toMillis())).toNanos();
        for (Map.Entry<Belief, Seen> entry : watched.entrySet()) {
            Belief lease = entry.getKey();
            if (lease.key().equals(key) && lease.holder().equals(holder)) {
                synchronized (lease) {
                    Seen before = entry.getValue();
                    if (before.tenure().isEmpty()) {
                        sink.accept(line(Math.max(before.lookedAtNanos(), sent), lease, Optional.of(confirmed)));
                        entry.setValue(new Seen(Optional.of(confirmed), System.nanoTime()));
                    }
                }
            }
        }
    }

    /**
     * The holder said it stopped owning {@code key} (a listener's {@code stoppedOwning}, which
     * the holder library calls after the belief ended and before any release is sent): written
     * at once, so a stalled sampler cannot date the end after the next owner's start. A look
     * and this never interleave, so a tenure seen before the end is never written after it.
     */
    void ended(String key, String holder) {
        for (Map.Entry<Belief, Seen> entry : watched.entrySet()) {
            Belief lease = entry.getKey();
            if (lease.key().equals(key) && lease.holder().equals(holder)) {
                synchronized (lease) {
                    long now = System.nanoTime();
                    if (entry.getValue().tenure().isPresent()) {
                        sink.accept(line(now, lease, Optional.empty()));
                    }
                    entry.setValue(new Seen(Optional.empty(), now));
                }
            }
        }
    }

    private String line(long atNanos, Belief lease, Optional<Tenure> tenure) {
        String prefix = atNanos + " " + lease.key() + " " + lease.holder() + " " + incarnation;
        return tenure.map(held -> prefix + " own " + held.start().revision() + " " + held.fence().revision() + " "
                + held.deadlineNanos()).orElse(prefix + " free");
    }

    /** Stops sampling after one last look, so a belief that ended just now is written as ended. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.join(5_000);
        lookOnce();
    }
}
