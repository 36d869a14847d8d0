package io.dagnats.leases.acceptance.harness;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeptLease;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
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
 * &lt;nanos&gt; &lt;key&gt; &lt;holder&gt; &lt;incarnation&gt; free &lt;last-look-that-saw-it-own&gt;
 * &lt;nanos&gt; &lt;key&gt; &lt;holder&gt; &lt;incarnation&gt; late &lt;deadline-nanos&gt;
 * &lt;nanos&gt; - - &lt;incarnation&gt; gap &lt;previous-look&gt;
 * </pre>
 *
 * {@code late}: a look saw a tenure still held at or past its own deadline (the
 * holder broke its promise to stop there). {@code gap}: a look came more than
 * {@link #GAP_NANOS} after the one before (a GC, a starved or stopped process), so
 * every boundary the sampler dated across it is that much wider.
 *
 * <p>It never looks at the service or at any other holder, and computes no time from
 * the holder library's own arithmetic: {@link OwnershipHistory} judges safety from
 * these lines alone.
 */
public final class OwnershipLog implements AutoCloseable {

    /** A look later than this after the previous one is written down as a gap. */
    static final long GAP_NANOS = 10_000_000;
    /**
     * A new log returns once its sampler has looked this long without a gap (or after 10 s):
     * a just-started JVM compiling its code starves threads, and a start dated at a look
     * before such a gap is dated that much earlier (safe, but a false overlap).
     */
    static final long STEADY_NANOS = 300_000_000;

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
    private volatile long looks;
    private long lastLookNanos;
    private volatile long lastGapNanos = System.nanoTime();

    /** Returns once the sampler is looking, so a holder started next has a previous look to date from. */
    private OwnershipLog(String incarnation, Consumer<String> sink) {
        this.incarnation = incarnation;
        this.sink = sink;
        this.sampler = new Thread(this::sample, "ownership-log-" + incarnation);
        sampler.setDaemon(true);
        sampler.start();
        long giveUp = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (looks < 2 || System.nanoTime() - lastGapNanos < STEADY_NANOS) {
            if (System.nanoTime() - giveUp > 0) {
                if (looks < 2) {
                    throw new IllegalStateException("the ownership sampler " + incarnation + " did not start looking");
                }
                break; // looking, if not steadily: its gaps are written down and widen nothing
            }
            // Polling's 50 ms pause is long next to a look; this wait is short and bounded.
            LockSupport.parkNanos(100_000);
        }
    }

    /** Lines appended to {@code file} and flushed one by one, so a killed process leaves every line it wrote. */
    static OwnershipLog toFile(Path file, String incarnation) {
        return new OwnershipLog(incarnation, FlushedLines.appendingTo(file));
    }

    /** Lines kept in memory, for holders in the test's own process. */
    public static OwnershipLog inMemory(String incarnation, List<String> lines) {
        return new OwnershipLog(incarnation, lines::add);
    }

    public static List<String> lines() {
        return new CopyOnWriteArrayList<>();
    }

    /**
     * Watches the lease {@code keeping} starts, from before it starts: a belief that began
     * before {@link #watch} would be dated from the watch, after its real start.
     */
    public KeptLease keep(String key, String holder, Supplier<KeptLease> keeping) {
        AtomicReference<KeptLease> lease = new AtomicReference<>();
        watch(key, holder, () -> Optional.ofNullable(lease.get()).flatMap(KeptLease::tenure));
        lease.set(keeping.get());
        return lease.get();
    }

    /**
     * A key whose tenure {@code tenure} reads, as a shard set's {@code tenure(shard)} does;
     * watched before the holder could own it, since a belief is dated from the look before.
     */
    public void watch(String key, String holder, Supplier<Optional<Tenure>> tenure) {
        watched.put(new Belief(key, holder, tenure), new Seen(Optional.empty(), System.nanoTime()));
    }

    /**
     * Times are stretched to the conservative side: a tenure that appears is dated
     * from when the previous look, which did not see it, began (it cannot have begun
     * earlier); one that disappears is dated after the look that no longer saw it,
     * with the last look that still did. A sampler that stalls therefore widens
     * windows, never hides an overlap, and writes the stall down as a gap.
     */
    private void sample() {
        while (running) {
            lookOnce();
            LockSupport.parkNanos(500_000);
        }
    }

    private void lookOnce() {
        long started = System.nanoTime();
        if (looks > 0 && started - lastLookNanos > GAP_NANOS) {
            sink.accept(started + " - - " + incarnation + " gap " + lastLookNanos);
            lastGapNanos = started;
        }
        lastLookNanos = started;
        for (Belief lease : watched.keySet()) {
            synchronized (lease) {
                long lookedAt = System.nanoTime();
                Optional<Tenure> now = lease.tenure().get();
                // Read under the lock, never from an entry the iteration handed out before it:
                // began() or ended() may have written news while this look waited for the lock.
                Seen before = watched.get(lease);
                if (!now.equals(before.tenure())) {
                    long at = now.isPresent() && before.tenure().isEmpty() ? before.lookedAtNanos() : System.nanoTime();
                    sink.accept(line(at, lease, now, before.lookedAtNanos()));
                }
                if (heldPast(now, lookedAt) && !(now.equals(before.tenure()) && heldPast(now, before.lookedAtNanos()))) {
                    sink.accept(prefix(lookedAt, lease) + " late " + now.get().deadlineNanos());
                }
                watched.put(lease, new Seen(now, lookedAt));
            }
        }
        looks++;
    }

    /** Whether {@code tenure} was still given out at {@code lookedAt}, at or past its own deadline. */
    private static boolean heldPast(Optional<Tenure> tenure, long lookedAt) {
        return tenure.isPresent() && lookedAt - tenure.get().deadlineNanos() >= 0;
    }

    /**
     * The holder said it began owning {@code key} under {@code confirmed}, the tenure its
     * listener's {@code becameOwner} (or a shard set's {@code shardAssigned}) was given.
     * When the sampler has not seen it yet, it is written now, dated from the sampler's
     * previous look, which saw the key not owned: the belief began after that look. The news
     * can come after the belief already ended (listeners are told on a thread of their own);
     * the next look, which no longer sees it, then writes its end.
     */
    public void began(String key, String holder, Tenure confirmed) {
        for (Belief lease : watched.keySet()) {
            if (lease.key().equals(key) && lease.holder().equals(holder)) {
                synchronized (lease) {
                    Seen before = watched.get(lease);
                    if (before.tenure().isEmpty()) {
                        sink.accept(line(before.lookedAtNanos(), lease, Optional.of(confirmed), 0));
                        watched.put(lease, new Seen(Optional.of(confirmed), System.nanoTime()));
                    }
                }
            }
        }
    }

    /**
     * The holder said it stopped owning {@code key} (a listener's {@code stoppedOwning}, which
     * the holder library calls after the belief ended, on a thread of its own, so possibly after
     * the release was sent): written at once, so a stalled sampler cannot date the end after the
     * next owner's start. A look and this never interleave, and both read what was seen under the
     * key's lock, so neither puts a stale view back over the other's.
     */
    public void ended(String key, String holder) {
        for (Belief lease : watched.keySet()) {
            if (lease.key().equals(key) && lease.holder().equals(holder)) {
                synchronized (lease) {
                    long now = System.nanoTime();
                    Seen before = watched.get(lease);
                    if (before.tenure().isPresent()) {
                        sink.accept(line(now, lease, Optional.empty(), before.lookedAtNanos()));
                    }
                    watched.put(lease, new Seen(Optional.empty(), now));
                }
            }
        }
    }

    /** An {@code own} line, or a {@code free} line naming {@code lastSeenOwning}, the last look that saw it held. */
    private String line(long atNanos, Belief lease, Optional<Tenure> tenure, long lastSeenOwning) {
        return tenure.map(held -> prefix(atNanos, lease) + " own " + held.start().revision() + " "
                + held.fence().revision() + " " + held.deadlineNanos())
                .orElse(prefix(atNanos, lease) + " free " + lastSeenOwning);
    }

    private String prefix(long atNanos, Belief lease) {
        return atNanos + " " + lease.key() + " " + lease.holder() + " " + incarnation;
    }

    /** Stops sampling after one last look, so a belief that ended just now is written as ended. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.join(5_000);
        lookOnce();
    }
}
