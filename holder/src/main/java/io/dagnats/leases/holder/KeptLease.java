package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One key this process wants to own, kept for as long as it is open: it
 * campaigns (acquire, then waits for the key to change, with a jittered
 * fallback), renews about every ttl/3, and stops acting as owner at its
 * deadline on the monotonic clock even while a renew is still in flight.
 *
 * <p>All state changes run on the holder's single scheduler thread; the
 * queries ({@link #isOwner()}, {@link #tenure()}, {@link #fence()}) read the
 * clock themselves, so they turn false at the deadline however late that
 * thread runs.
 */
public final class KeptLease implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(KeptLease.class.getName());
    private static final long MILLI = 1_000_000L;

    private final LeaseKey key;
    private final HolderId holder;
    private final LeaseTtl ttl;
    private final long ttlNanos;
    private final LeaseClient client;
    private final MonotonicClock clock;
    private final ScheduledExecutorService scheduler;
    private final OwnershipListener listener;
    private final Random random = new Random();
    private final Connection connection;
    private final Dispatcher changes;
    private final HolderTelemetry telemetry;

    private volatile Tenure tenure;

    // Scheduler-thread state.
    private boolean closed;
    private boolean busy;
    private int generation;
    /** When the earliest write whose outcome we do not know was sent; a grant may stem from it. */
    private Long uncertainSince;
    private Fence lastWritten;
    private long lastWrittenSentAt;

    KeptLease(LeaseKey key, HolderId holder, LeaseTtl ttl, LeaseClient client, MonotonicClock clock,
            ScheduledExecutorService scheduler, OwnershipListener listener, Connection connection,
            HolderTelemetry telemetry) {
        this.key = key;
        this.holder = holder;
        this.ttl = ttl;
        this.ttlNanos = ttl.duration().toNanos();
        this.client = client;
        this.clock = clock;
        this.scheduler = scheduler;
        this.listener = listener;
        this.connection = connection;
        this.telemetry = telemetry;
        this.changes = connection.createDispatcher(event -> {
            if (tenure == null) {
                // Somebody released it or the server expired it: try now, a few ms apart from the others.
                schedule(this::campaign, random.nextInt(25) * MILLI);
            }
        });
        changes.subscribe("dagnats.lease.changed." + key.value());
        scheduler.execute(this::campaign);
    }

    public LeaseKey key() {
        return key;
    }

    /** Whether this process may act as owner right now. */
    public boolean isOwner() {
        Tenure current = tenure;
        return current != null && current.actingAsOwner(clock.nanoTime());
    }

    /** The current tenure, while acting as owner. */
    public Optional<Tenure> tenure() {
        Tenure current = tenure;
        return current != null && current.actingAsOwner(clock.nanoTime()) ? Optional.of(current) : Optional.empty();
    }

    /** The fence to send with every downstream write, while acting as owner. */
    public Optional<Fence> fence() {
        return tenure().map(Tenure::fence);
    }

    /** The owner-side rule for a forwarded request to this key. */
    Tenure.ForwardVerdict judgeForward(String fenceHeader) {
        Tenure current = tenure;
        if (current == null) {
            return Tenure.ForwardVerdict.REJECT_PAST_DEADLINE;
        }
        return current.judgeForward(fenceHeader, clock.nanoTime());
    }

    private void campaign() {
        if (closed || busy || tenure != null) {
            return;
        }
        busy = true;
        long sentAt = clock.nanoTime();
        client.acquire(key, holder, ttl).whenCompleteAsync((answer, failure) -> onAcquired(sentAt, answer, failure), scheduler);
    }

    private void onAcquired(long sentAt, Answers.Acquire answer, Throwable failure) {
        busy = false;
        if (failure != null) {
            noteUncertain(sentAt, failure);
            schedule(this::campaign, retryDelay());
            return;
        }
        if (answer instanceof Answers.Acquire.HeldByOther other) {
            uncertainSince = null;
            schedule(this::campaign, fallbackDelay(other.lease()));
            return;
        }
        Fence granted = answer.lease().revision();
        // The write behind this grant was sent no later than the earliest request that may have made it.
        long base = earliest(sentAt, uncertainSince);
        if (granted.equals(lastWritten)) {
            base = earliest(base, lastWrittenSentAt);
        }
        uncertainSince = null;
        remember(granted, base);
        Tenure candidate = Tenure.begin(key, holder, granted, base, ttl);
        if (closed) {
            release(candidate);
            return;
        }
        if (candidate.nanosLeft(clock.nanoTime()) > ttlNanos / 3) {
            becomeOwner(candidate);
        } else {
            // Held on the server, but too close to the deadline to act on: renew first.
            renew(candidate);
        }
    }

    private void becomeOwner(Tenure granted) {
        tenure = granted;
        generation++;
        telemetry.ownershipChanged(key.value(), true);
        listener.becameOwner(granted);
        scheduleRenewAndDeadline(granted);
    }

    private void scheduleRenewAndDeadline(Tenure current) {
        int scheduled = generation;
        long now = clock.nanoTime();
        long renewIn = Math.max(0, current.nanosLeft(now) - 2 * ttlNanos / 3);
        schedule(() -> {
            if (scheduled == generation && tenure != null) {
                renew(tenure);
            }
        }, renewIn);
        schedule(() -> {
            if (scheduled == generation && tenure != null && !tenure.actingAsOwner(clock.nanoTime())) {
                stop(OwnershipListener.StopReason.DEADLINE_PASSED);
                campaign();
            }
        }, Math.max(0, current.nanosLeft(now)));
    }

    private void renew(Tenure current) {
        if (closed || busy) {
            return;
        }
        busy = true;
        long sentAt = clock.nanoTime();
        client.renew(key, holder, current.fence(), Optional.of(ttl))
                .whenCompleteAsync((answer, failure) -> onRenewed(current, sentAt, answer, failure), scheduler);
    }

    private void onRenewed(Tenure renewedFrom, long sentAt, Answers.Renew answer, Throwable failure) {
        busy = false;
        if (closed) {
            return;
        }
        if (failure != null) {
            noteUncertain(sentAt, failure);
            Tenure current = tenure;
            if (current != null && current.actingAsOwner(clock.nanoTime())) {
                int scheduled = generation;
                schedule(() -> {
                    if (scheduled == generation && tenure != null) {
                        renew(tenure);
                    }
                }, Math.min(ttlNanos / 10, 1_000 * MILLI));
            } else if (current == null) {
                schedule(this::campaign, retryDelay());
            }
            return;
        }
        if (answer instanceof Answers.Renew.Lost lost) {
            LOG.log(System.Logger.Level.INFO, "lease " + key + " lost: " + lost.reason());
            if (tenure != null) {
                stop(OwnershipListener.StopReason.LOST);
            }
            schedule(this::campaign, random.nextInt(50) * MILLI);
            return;
        }
        Fence renewed = ((Answers.Renew.Renewed) answer).lease().revision();
        telemetry.renewed(key.value(), renewedFrom.nanosLeft(clock.nanoTime()));
        uncertainSince = null;
        remember(renewed, sentAt);
        Tenure next = renewedFrom.renewed(renewed, sentAt, ttl);
        if (!next.actingAsOwner(clock.nanoTime())) {
            if (tenure != null) {
                stop(OwnershipListener.StopReason.DEADLINE_PASSED);
            }
            renew(next);
            return;
        }
        if (tenure == null) {
            becomeOwner(next);
        } else {
            tenure = next;
            generation++;
            scheduleRenewAndDeadline(next);
        }
    }

    private void stop(OwnershipListener.StopReason reason) {
        tenure = null;
        generation++;
        telemetry.ownershipChanged(key.value(), false);
        listener.stoppedOwning(reason);
    }

    private void noteUncertain(long sentAt, Throwable failure) {
        Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof DagnatsException dagnats && !dagnats.retryable()) {
            LOG.log(System.Logger.Level.WARNING, "lease " + key + ": " + dagnats.getMessage());
            return;
        }
        uncertainSince = earliest(sentAt, uncertainSince);
    }

    private void remember(Fence written, long sentAt) {
        lastWritten = written;
        lastWrittenSentAt = sentAt;
    }

    private static long earliest(long candidate, Long other) {
        return other != null && other - candidate < 0 ? other : candidate;
    }

    private long retryDelay() {
        return Math.min(ttlNanos / 3, (200 + random.nextInt(300)) * MILLI);
    }

    /** A wake-up near the holder's advisory expiry, in case the change event is lost (events are at most once). */
    private long fallbackDelay(LeaseView lease) {
        long untilExpiry = Duration.between(Instant.now(), lease.expiresAt()).toNanos();
        long jitter = random.nextInt(200) * MILLI;
        return Math.max(50 * MILLI, Math.min(ttlNanos, untilExpiry + 100 * MILLI)) + jitter;
    }

    private void schedule(Runnable action, long delayNanos) {
        if (!scheduler.isShutdown()) {
            scheduler.schedule(action, delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void release(Tenure held) {
        client.release(key, holder, held.fence());
    }

    /** Stops keeping the key: stops acting as owner, and releases the lease if it is held. */
    @Override
    public void close() {
        CompletableFuture<Void> released = new CompletableFuture<>();
        if (scheduler.isShutdown()) {
            return;
        }
        scheduler.execute(() -> {
            if (closed) {
                released.complete(null);
                return;
            }
            closed = true;
            Tenure held = tenure;
            if (held == null) {
                released.complete(null);
                return;
            }
            stop(OwnershipListener.StopReason.RELEASED);
            client.release(key, holder, held.fence()).whenComplete((answer, failure) -> released.complete(null));
        });
        try {
            released.get(10, TimeUnit.SECONDS);
        } catch (TimeoutException | java.util.concurrent.ExecutionException slow) {
            LOG.log(System.Logger.Level.WARNING, "lease " + key + " was not released in time; the server's TTL will free it");
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } finally {
            connection.closeDispatcher(changes);
        }
    }
}
