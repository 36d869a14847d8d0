package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.DagnatsException;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * Keeps one key for a {@link KeptLease}: the state machine that campaigns, renews
 * and stops at the deadline.
 *
 * <p>Over 200 lines on purpose: it is one state machine, and its transitions share
 * the fields below, confined to one thread; split across classes, the rules that
 * tie them (a call in flight decides what comes next, a timer of an older tenure
 * does nothing, a close releases what the call in flight turns out to hold) would
 * no longer be read in one place.
 *
 * <p>It campaigns: an acquire, and while another holder has the key, it waits
 * for the key to be freed. A release, revoke or expiry event wakes it within
 * {@link #EVENT_JITTER_MS}; acquire and renew events of the holder do not
 * (they cannot make an acquire succeed), nor do messages that are no event.
 * Events are at most once, so it also asks again by itself just after the
 * holder's advisory expiry as the last answer gave it: {@link #fallbackDelay}.
 * While the key stays held by a holder renewing every third of its TTL that is
 * one acquire per two thirds to one TTL per waiter, however many wait; a waiter
 * whose events are all lost takes a dead holder's key at most
 * {@link #FALLBACK_AFTER_EXPIRY_MS} + {@link #FALLBACK_JITTER_MS} after its
 * expiry (plus a round trip). At most one wake-up is pending at a time: each
 * replaces the one before, so timers never pile up.
 *
 * <p>A grant is not yet ownership: an acquire by the current holder
 * returns the earlier write unchanged, whose TTL may have started long before
 * (a process restarted with its own holder id, a retried acquire). So after a
 * grant it renews at once, and acts as owner only once that renew, a write this
 * very request caused, succeeds: the deadline runs from that renew's send time,
 * less {@link Tenure#safetyMargin}. It renews about every ttl/3 from then on, and
 * stops acting as owner at the deadline on the monotonic clock even while a renew
 * is still in flight.
 *
 * <p>All state changes run on the holder's single scheduler thread; what it decides
 * is published in its {@link Ownership}, whose queries read the clock themselves.
 * A listener that throws is logged and changes nothing here.
 */
final class LeaseKeeper {

    /**
     * Logs under the public handle's name, as it always has, so users' logging settings still
     * apply; spelt out, so the state machine does not depend back on its handle.
     */
    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.KeptLease");
    private static final long MILLI = 1_000_000L;
    /** How long a close waits for interrupted forward handlers before it gives up releasing. */
    private static final Duration HANDLER_DRAIN = Duration.ofSeconds(5);
    /** A freed key wakes the waiters this far apart at most, so they do not all ask in the same millisecond. */
    static final int EVENT_JITTER_MS = 25;
    /** The fallback asks this long after the holder's advisory expiry (the server frees the key by then)... */
    static final int FALLBACK_AFTER_EXPIRY_MS = 100;
    /** ...spread over this much more, so the waiters of one key do not ask at once. */
    static final int FALLBACK_JITTER_MS = 200;
    /**
     * An expiry read as past by less than this, in fewer than {@link #EXPIRED_ANSWERS_BELIEVED}
     * answers in a row, is believed: the server frees an expired key a little late (about
     * 150 to 300 ms measured on nats-server 2.15.1). Past that, this process's wall clock runs
     * ahead of the server's, and the fallback waits two thirds of the TTL instead.
     */
    static final Duration EXPIRED_BELIEVED = Duration.ofSeconds(2);
    static final int EXPIRED_ANSWERS_BELIEVED = 4;

    private final LeaseKey key;
    private final HolderId holder;
    private final LeaseTtl ttl;
    private final long ttlNanos;
    private final LeaseCalls client;
    private final MonotonicClock clock;
    private final Scheduler scheduler;
    private final OwnershipListener listener;
    private final HolderTelemetry telemetry;
    private final Random random = new Random();
    /** The tenure, written only on the scheduler thread, and the forward handlers running under it. */
    private final Ownership ownership;

    // Scheduler-thread state.
    private boolean closed;
    /** A call is in flight; its completion decides what comes next. */
    private boolean busy;
    /** Bumped whenever the tenure changes, so timers set for an older one do nothing. */
    private int generation;
    /** Completed once a close has released what it could; set by the first close. */
    private CompletableFuture<Void> closing;
    /** Whether the close releases what is held, or leaves it to the server's TTL; set by the first close. */
    private boolean releaseOnClose = true;
    /** Bumped by every wake-up scheduled, so only the latest one campaigns. */
    private int wakes;
    /** The key was freed while a call was in flight, whose answer may predate it: ask again after it. */
    private boolean freedWhileBusy;
    /** Answers in a row whose holder's expiry read as already past on this process's clock. */
    private int expiredAnswersInARow;
    /** The last answer, if its holder's expiry read as already past (after {@link #clockAheadNanos}). */
    private LeaseView lastReadAsExpired;
    /** How far past that expiry read, and when (monotonic). */
    private long lastPastByNanos;
    private long lastReadAtNanos;
    /**
     * How far this process's wall clock is known to run ahead of the server's: grown by how far
     * past an expiry read when the server then accepted a renewal of that very acquisition
     * (same holder, same acquired_at, a higher revision), plus the time until this process
     * heard of it: the server held the key at least that much longer than this clock said. A
     * correct clock that read into the server's own lag (150 to 300 ms) gains about that much.
     */
    private long clockAheadNanos;
    /** A renew went unanswered since the last confirmed one: it may have written. */
    private boolean uncertainWrite;
    /** The last write this process saw confirmed as its own, and the acquisition it renewed; null before any. */
    private Fence lastOwnFence;
    private Instant ownAcquiredAt;
    /** An acquisition another process keeps under this holder id: this one stays off it. */
    private Instant twinAcquiredAt;
    /** The highest release, revoke or expiry of the key seen: a write below it is already ended. */
    private Fence endedAt;
    /** The acquisition the renews now sent present (set by each grant), and those an unanswered renew presented. */
    private Instant renewingAcquiredAt;
    private final java.util.Set<Instant> uncertainAcquisitions = new java.util.HashSet<>();

    LeaseKeeper(LeaseKey key, HolderId holder, LeaseTtl ttl, LeaseCalls client, MonotonicClock clock,
            Scheduler scheduler, OwnershipListener listener, HolderTelemetry telemetry) {
        this.key = key;
        this.holder = holder;
        this.ttl = ttl;
        this.ttlNanos = ttl.duration().toNanos();
        this.client = client;
        this.clock = clock;
        this.scheduler = scheduler;
        this.listener = listener;
        this.telemetry = telemetry;
        this.ownership = new Ownership(clock);
    }

    /** Starts campaigning. Called once, by the holder, after it has subscribed to the key's changes. */
    void start() {
        scheduler.execute(this::campaign);
    }

    /**
     * The key changed on the server. Not owner: if the key was freed, try now, a
     * few ms apart from the other waiters; anything else leaves the waiter
     * waiting (the fallback covers a lost or unreadable event). Owner: a release, revoke or expiry written after this
     * tenure began ended it (an operator revoked it, most likely), so stop now
     * rather than at the next renew's {@code lost}, and after a revoke wait a
     * third of the TTL before campaigning again, so that a waiting replica
     * takes the key. Stopping early is always safe; a forged or misread event
     * can only cost a campaign.
     */
    void keyChanged(Optional<LeaseChange> change) {
        scheduler.execute(() -> {
            if (closed) {
                return;
            }
            if (change.isPresent() && change.get().kind().endsLease()
                    && (endedAt == null || endedAt.isBelow(new Fence(change.get().sequence())))) {
                endedAt = new Fence(change.get().sequence());
            }
            Tenure current = tenure();
            if (current == null) {
                if (change.isPresent() && change.get().kind().endsLease()) {
                    freedWhileBusy = busy;
                    wakeAfter(random.nextInt(EVENT_JITTER_MS) * MILLI);
                }
            } else if (change.isPresent() && writtenByAnotherProcess(change.get(), current)) {
                // Which acquisition it keeps is told by the next grant (keptByAnotherProcess).
                warnTwin(change.get().sequence());
                stop(OwnershipListener.StopReason.LOST);
                wakeAfter(random.nextInt(50) * MILLI);
            } else if (change.isPresent() && endsTenure(change.get(), current)) {
                LOG.log(System.Logger.Level.INFO, "lease " + key + " ended on the server ("
                        + change.get().kind().word() + " at revision " + Long.toUnsignedString(change.get().sequence())
                        + change.get().reason().map(reason -> ": " + reason).orElse("") + ")");
                stop(OwnershipListener.StopReason.LOST);
                // Revoked: an operator moved the key away, so step back and let a waiting replica take it.
                long backOff = change.get().kind() == LeaseChange.Kind.REVOKED ? ttlNanos / 3 : random.nextInt(50) * MILLI;
                wakeAfter(backOff);
            }
        });
    }

    /**
     * An acquire or renew under this holder id above this tenure's fence while no write of
     * this process is in flight or unanswered: another process uses the same holder id (an old
     * one that was paused, or a restart while it was), and it holds the key now.
     */
    private boolean writtenByAnotherProcess(LeaseChange change, Tenure current) {
        return !change.kind().endsLease() && change.holder().filter(holder::equals).isPresent() && !busy
                && !uncertainWrite && current.fence().isBelow(new Fence(change.sequence()));
    }

    /**
     * A grant of the acquisition this process renewed, at a revision above its last write
     * when every write of its own was answered, or of one it already found another process
     * keeping: the other process under this holder id keeps it. Renewing it would take it
     * back, and the two would take turns for good.
     */
    private boolean keptByAnotherProcess(LeaseView granted) {
        if (granted.acquiredAt().equals(twinAcquiredAt)) {
            return true;
        }
        // Above every write of this process, and every one answered: the acquisition it renewed,
        // renewed again by another; or one this process never renewed that was renewed since it
        // was acquired (a grant of a fresh acquisition by this acquire was never renewed, and
        // every holder renews its grant at once).
        if (lastOwnFence == null || !lastOwnFence.isBelow(granted.revision())) {
            return false;
        }
        if (granted.acquiredAt().equals(ownAcquiredAt)) {
            return !uncertainWrite;
        }
        return renewedSinceAcquired(granted) && !uncertainAcquisitions.contains(granted.acquiredAt());
    }

    private static boolean renewedSinceAcquired(LeaseView lease) {
        return lease.expiresAt().minus(lease.ttl().duration()).isAfter(lease.acquiredAt());
    }

    private void warnTwin(long revision) {
        LOG.log(System.Logger.Level.WARNING, "lease " + key + " is kept by another process under this holder id "
                + holder + " (revision " + Long.toUnsignedString(revision) + " is not this process's write): this"
                + " process stays off it until the key is freed. Holder ids must be unique per process.");
    }

    private static boolean endsTenure(LeaseChange change, Tenure current) {
        return change.kind().endsLease() && current.start().isBelow(new Fence(change.sequence()));
    }

    LeaseKey key() {
        return key;
    }

    HolderId holder() {
        return holder;
    }

    Ownership ownership() {
        return ownership;
    }

    /** The tenure last confirmed, even past its deadline; null when not owner. Read on the scheduler thread. */
    private Tenure tenure() {
        return ownership.current();
    }

    /** Campaigns after {@code delayNanos}, unless another wake-up is scheduled before then: the latest one wins. */
    private void wakeAfter(long delayNanos) {
        int wake = ++wakes;
        scheduler.schedule(() -> {
            if (wake == wakes) {
                campaign();
            }
        }, delayNanos);
    }

    private void campaign() {
        if (closed || busy || tenure() != null) {
            return;
        }
        busy = true;
        freedWhileBusy = false;
        client.acquire(key, holder, ttl).whenCompleteAsync(this::onAcquired, scheduler);
    }

    private void onAcquired(Answers.Acquire answer, Throwable failure) {
        busy = false;
        if (closed) {
            // Release what the acquire turned out to hold, unless another process under this id keeps it.
            finishClosing(failure == null && answer instanceof Answers.Acquire.Granted granted
                    && !keptByAnotherProcess(granted.lease()) ? Optional.of(granted.lease().revision()) : Optional.empty());
            return;
        }
        if (failure != null) {
            logIfFinal(failure);
            wakeAfter(retryDelay());
            return;
        }
        if (answer instanceof Answers.Acquire.HeldByOther other) {
            wakeAfter(freedWhileBusy ? random.nextInt(EVENT_JITTER_MS) * MILLI : fallbackDelay(other.lease()));
            return;
        }
        if (keptByAnotherProcess(answer.lease())) {
            if (!answer.lease().acquiredAt().equals(twinAcquiredAt)) {
                twinAcquiredAt = answer.lease().acquiredAt();
                warnTwin(answer.lease().revision().revision());
            }
            wakeAfter(fallbackDelay(answer.lease()));
            return;
        }
        twinAcquiredAt = null;
        renewingAcquiredAt = answer.lease().acquiredAt();
        // A grant is a read after every end seen before it; the renew below is a compare-and-set on it.
        endedAt = null;
        // Held on the server, but maybe by a write made long ago: prove time left with a write of our own.
        Fence granted = answer.lease().revision();
        renew(granted, granted);
    }

    /** @param start the fence the tenure began with, kept across renewals */
    private void renew(Fence start, Fence current) {
        if (closed || busy) {
            return;
        }
        busy = true;
        ownership.unsettled(true);
        long sentAt = clock.nanoTime();
        client.renew(key, holder, current, Optional.of(ttl))
                .whenCompleteAsync((answer, failure) -> onRenewed(start, sentAt, answer, failure), scheduler);
    }

    private void onRenewed(Fence start, long sentAt, Answers.Renew answer, Throwable failure) {
        busy = false;
        if (closed) {
            finishClosing(failure == null && answer instanceof Answers.Renew.Renewed renewed
                    ? Optional.of(renewed.lease().revision()) : Optional.empty());
            return;
        }
        if (failure != null) {
            logIfFinal(failure);
            uncertainWrite = true;
            if (renewingAcquiredAt != null) {
                uncertainAcquisitions.add(renewingAcquiredAt);
            }
            Tenure current = tenure();
            if (current != null && current.actingAsOwner(clock.nanoTime())) {
                int scheduled = generation;
                scheduler.schedule(() -> {
                    if (scheduled == generation && tenure() != null) {
                        renew(tenure().start(), tenure().fence());
                    }
                }, Math.min(ttlNanos / 10, 1_000 * MILLI));
            } else if (current == null) {
                // Not owner (yet): an acquire says whether the key is still ours.
                wakeAfter(retryDelay());
            }
            return;
        }
        if (answer instanceof Answers.Renew.Lost lost) {
            LOG.log(System.Logger.Level.INFO, "lease " + key + " lost: " + lost.reason());
            if (tenure() != null) {
                stop(OwnershipListener.StopReason.LOST);
            }
            wakeAfter(random.nextInt(50) * MILLI);
            return;
        }
        LeaseView written = ((Answers.Renew.Renewed) answer).lease();
        Fence renewed = written.revision();
        uncertainWrite = false;
        uncertainAcquisitions.clear();
        lastOwnFence = renewed;
        ownAcquiredAt = written.acquiredAt();
        if (endedAt != null && renewed.isBelow(endedAt)) {
            // Written before a release, revoke or expiry this process has already seen: ended.
            if (tenure() != null) {
                stop(OwnershipListener.StopReason.LOST);
            }
            wakeAfter(ttlNanos / 3);
            return;
        }
        Tenure next = Tenure.begin(key, holder, start, sentAt, ttl).renewed(renewed, sentAt, ttl);
        Tenure previous = tenure();
        if (!next.actingAsOwner(clock.nanoTime())) {
            // The answer came too late to act on: stop, and renew again for a fresh deadline.
            if (previous != null) {
                stop(OwnershipListener.StopReason.DEADLINE_PASSED);
            }
            renew(start, renewed);
            return;
        }
        if (previous != null) {
            telemetry.renewed(key.value(), previous.nanosLeft(clock.nanoTime()));
        }
        ownership.confirm(next);
        ownership.unsettled(false);
        generation++;
        scheduleRenewAndDeadline(next, sentAt);
        if (previous == null) {
            telemetry.ownershipChanged(key.value(), true);
            tell(OwnershipListener::becameOwner, next);
        } else {
            tell(OwnershipListener::renewed, next);
        }
    }

    private void scheduleRenewAndDeadline(Tenure current, long sentAt) {
        int scheduled = generation;
        long now = clock.nanoTime();
        scheduler.schedule(() -> {
            if (scheduled == generation && tenure() != null) {
                renew(tenure().start(), tenure().fence());
            }
        }, Math.max(0, sentAt + ttlNanos / 3 - now));
        scheduler.schedule(() -> {
            if (scheduled == generation && tenure() != null && !tenure().actingAsOwner(clock.nanoTime())) {
                stop(OwnershipListener.StopReason.DEADLINE_PASSED);
                campaign();
            }
        }, Math.max(0, current.nanosLeft(now)));
    }

    private void stop(OwnershipListener.StopReason reason) {
        // No forward is admitted from here on, and those still running are told to stop.
        ownership.end();
        generation++;
        telemetry.ownershipChanged(key.value(), false);
        tell((target, why) -> target.stoppedOwning(why), reason);
    }

    /** Calls the user's listener; whatever it throws is logged and never stops the lease being kept. */
    private <T> void tell(BiConsumer<OwnershipListener, T> call, T argument) {
        try {
            call.accept(listener, argument);
        } catch (RuntimeException | Error thrown) {
            LOG.log(System.Logger.Level.WARNING, "the ownership listener of " + key + " threw; the lease is kept as before",
                    thrown);
        }
    }

    private void logIfFinal(Throwable failure) {
        Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof DagnatsException dagnats && !dagnats.retryable()) {
            LOG.log(System.Logger.Level.WARNING, "lease " + key + ": " + dagnats.getMessage());
        }
    }

    private long retryDelay() {
        return Math.min(ttlNanos / 3, (200 + random.nextInt(300)) * MILLI);
    }

    /**
     * A wake-up just after the holder's advisory expiry, in case the event that frees the key
     * is lost (events are at most once): never sooner than 50 ms, never later than this
     * keeper's own TTL (a clock far off, a holder with a longer TTL), plus jitter. The expiry
     * is read on this process's wall clock: one already past is believed while it is past by
     * less than {@link #EXPIRED_BELIEVED} and for at most {@link #EXPIRED_ANSWERS_BELIEVED}
     * answers in a row (the server frees an expired key a little late); beyond that this clock
     * runs ahead of the server's, and the wait is two thirds of this keeper's TTL, the rate a
     * renewing holder allows, rather than a poll every few hundred ms. Expiries are read
     * corrected by {@link #clockAheadNanos}, learnt from renewals the server accepted after an
     * expiry that read as past.
     */
    private long fallbackDelay(LeaseView lease) {
        long untilExpiry = Duration.between(Instant.now(), lease.expiresAt()).toNanos() + clockAheadNanos;
        long jitter = random.nextInt(FALLBACK_JITTER_MS) * MILLI;
        if (lastReadAsExpired != null && lastReadAsExpired.holder().equals(lease.holder())
                && lastReadAsExpired.acquiredAt().equals(lease.acquiredAt())
                && lastReadAsExpired.revision().isBelow(lease.revision())) {
            // Still held then, and at least until the renewal, which came after that reading.
            clockAheadNanos += lastPastByNanos + (clock.nanoTime() - lastReadAtNanos);
            untilExpiry = Duration.between(Instant.now(), lease.expiresAt()).toNanos() + clockAheadNanos;
        }
        lastReadAsExpired = untilExpiry > 0 ? null : lease;
        lastPastByNanos = Math.max(0, -untilExpiry);
        lastReadAtNanos = clock.nanoTime();
        if (untilExpiry > 0) {
            expiredAnswersInARow = 0;
        } else if (++expiredAnswersInARow > EXPIRED_ANSWERS_BELIEVED || -untilExpiry >= EXPIRED_BELIEVED.toNanos()) {
            return ttlNanos * 2 / 3 + jitter;
        }
        return Math.max(50 * MILLI, Math.min(ttlNanos, untilExpiry + FALLBACK_AFTER_EXPIRY_MS * MILLI)) + jitter;
    }

    /**
     * Releases under {@code held} once no forward handler of this key still runs: until
     * then this process may still be acting on the key, and a release would let
     * another owner in. A handler that ignores its interrupt for longer than
     * {@link #HANDLER_DRAIN} leaves the lease to expire by its TTL instead.
     */
    private void releaseAndFinishClosing(Fence held) {
        ownership.runsEnded(HANDLER_DRAIN)
                .whenComplete((done, slow) -> {
                    if (slow != null) {
                        LOG.log(System.Logger.Level.WARNING, "a forward handler of " + key + " still runs "
                                + HANDLER_DRAIN.toSeconds() + " s after it was interrupted; the lease is not released,"
                                + " the server's TTL will free it");
                        finishClosing();
                        return;
                    }
                    client.release(key, holder, held).whenComplete((answer, failure) -> finishClosing());
                });
    }

    /** A call in flight when the lease was closed has come back: release what it left us holding, if anything. */
    private void finishClosing(Optional<Fence> held) {
        if (held.isPresent() && releaseOnClose) {
            releaseAndFinishClosing(held.get());
        } else {
            finishClosing();
        }
    }

    private void finishClosing() {
        if (closing != null) {
            closing.complete(null);
        }
    }

    /** Begins closing on the scheduler thread; the stage completes once what was held is released. */
    CompletableFuture<Void> beginClose() {
        return beginClose(true);
    }

    /**
     * Begins closing without releasing: ownership ends now and nothing is renewed
     * again, so the server's TTL frees the key, and only after the deadline of every
     * tenure this process was given (each deadline is a margin short of a TTL that
     * started at the server after its renew was sent). For when this process may
     * still be acting on the key through a tenure it handed out, which a release
     * would let another owner in under.
     */
    CompletableFuture<Void> beginAbandon() {
        return beginClose(false);
    }

    private CompletableFuture<Void> beginClose(boolean release) {
        CompletableFuture<Void> closed = new CompletableFuture<>();
        if (scheduler.isShutdown()) {
            closed.complete(null);
            return closed;
        }
        scheduler.execute(() -> {
            if (closing != null) {
                closing.whenComplete((ignored, failure) -> closed.complete(null));
                return;
            }
            this.closed = true;
            closing = closed;
            releaseOnClose = release;
            Tenure held = tenure();
            if (held != null) {
                stop(release ? OwnershipListener.StopReason.RELEASED : OwnershipListener.StopReason.ABANDONED);
            }
            if (busy) {
                return; // the call in flight releases whatever it turns out to hold
            }
            if (held != null && release) {
                releaseAndFinishClosing(held.fence());
            } else {
                finishClosing();
            }
        });
        return closed;
    }
}
