package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.MonotonicClock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The bucket as it is served between two looks: the status calls are served under, the sequences
 * confirmed in the bucket judged ready (ADR-026 rule 4), and what requests found of it (a sequence
 * seen, the bucket gone or gone back). Requests write here through their {@link BucketSession};
 * {@link LeaseBucket}'s looks read it and replace the status.
 */
final class ServedBucket {

    private static final System.Logger LOG = System.getLogger(LogNames.BUCKET);

    /**
     * A put is withheld once the last look JetStream answered is this old (looks run every 2 s and
     * take at most a JetStream request or two): an instance that cannot look cannot learn of a grace
     * end recorded meanwhile (a fence skip's hold, ADR-039), so it grants and renews nothing until it
     * has looked again.
     */
    static final Duration UNLOOKED = Duration.ofSeconds(6);

    private final MonotonicClock monotonic;
    private final AtomicReference<BucketStatus> status =
            new AtomicReference<>(new BucketStatus.Pending("not provisioned yet"));
    /** When a look JetStream answered last set the status, on {@link #monotonic}. */
    private volatile long answeredAt;
    private volatile Runnable recheck = () -> { };
    /** Sequences requests saw since the last check: which bucket answered them is not yet confirmed. */
    private final AtomicLong unconfirmedHighest = new AtomicLong();
    /** The sequences confirmed in the bucket last judged ready; replaced when its identity changes. */
    private volatile SequenceCheck sequences;
    /** A request's proof that the bucket with this identity went back; the next look hands it to the history. */
    private volatile Rollback rollback;

    record Rollback(BucketIdentity identity, String evidence) {
    }

    ServedBucket(MonotonicClock monotonic) {
        this.monotonic = Objects.requireNonNull(monotonic, "monotonic");
        this.answeredAt = monotonic.nanoTime();
    }

    BucketStatus status() {
        return status.get();
    }

    /** A look's verdict, served from now on; {@code answered} when JetStream answered that look. */
    void set(BucketStatus judged, boolean answered) {
        if (answered) {
            answeredAt = monotonic.nanoTime();
        }
        status.set(judged);
    }

    /** Why a put is withheld because the bucket has not been looked at for {@link #UNLOOKED}; empty otherwise. */
    Optional<String> unlooked() {
        long since = monotonic.nanoTime() - answeredAt;
        if (since < UNLOOKED.toNanos()) {
            return Optional.empty();
        }
        recheck(); // look now rather than at the next tick: the caller retries
        return Optional.of("the leases bucket has not been looked at for " + since / 1_000_000_000L
                + " s (JetStream does not answer); no lease is granted or renewed until it is");
    }

    void recheckWith(Runnable recheck) {
        this.recheck = Objects.requireNonNull(recheck, "recheck");
    }

    /** Asks for a look soon, off this thread. */
    void recheck() {
        recheck.run();
    }

    /** The proof a request left that the bucket went back, once. */
    Optional<Rollback> takeRollback() {
        Rollback proven = rollback;
        rollback = null;
        return Optional.ofNullable(proven);
    }

    /** The highest sequence confirmed in the bucket last judged ready; 0 before any. */
    long highestConfirmed() {
        SequenceCheck current = sequences;
        return current == null ? 0 : current.highest();
    }

    long unconfirmedHighest() {
        return unconfirmedHighest.get();
    }

    /** The sequences requests saw since the last look, handed to this look, and counted afresh from 0. */
    long takeUnconfirmed() {
        return unconfirmedHighest.getAndSet(0);
    }

    /** A look judged the bucket with {@code identity} ready at {@code lastSequence}. */
    void confirm(BucketIdentity identity, long lastSequence) {
        SequenceCheck current = sequences;
        if (current != null && current.identity().equals(identity)) {
            current.confirmed(lastSequence);
        } else {
            sequences = new SequenceCheck(identity, lastSequence);
        }
    }

    /** The sequences confirmed in the bucket judged ready with {@code identity}; empty once another was judged. */
    Optional<SequenceCheck> sequences(BucketIdentity identity) {
        SequenceCheck current = sequences;
        return current != null && current.identity().equals(identity) ? Optional.of(current) : Optional.empty();
    }

    /** A request saw {@code sequence}; counted for this bucket at the next look, if it is still the same bucket. */
    void saw(long sequence) {
        unconfirmedHighest.accumulateAndGet(sequence, Math::max);
    }

    /**
     * A request found the bucket it was sent to gone or not the one judged ready: no call is
     * served until it has been judged again. Logged once, as one line.
     */
    void lost(BucketStatus.Ready ready, String reason) {
        if (status.compareAndSet(ready, new BucketStatus.Pending("the bucket changed (" + reason + "); checking it again"))) {
            LOG.log(System.Logger.Level.WARNING, "dagnats: leases bucket changed under the service (" + reason
                    + "); answering unavailable until it is judged again");
            recheck.run();
        }
    }

    /**
     * A write into the bucket judged {@code ready} was acknowledged at or below a sequence already
     * confirmed in it: its sequences went back. Refused at once and for good, as two looks with the
     * last sequence gone back are (ADR-026 rule 5). Logged once, as one line.
     */
    void rolledBack(BucketStatus.Ready ready, String evidence) {
        rollback = new Rollback(ready.identity(), evidence);
        BucketStatus.Unsupported refused = new BucketStatus.Unsupported(BucketHistory.rolledBackRefusal(evidence));
        if (status.compareAndSet(ready, refused)) {
            LOG.log(System.Logger.Level.ERROR, "dagnats: " + refused.describe());
            recheck.run();
        }
    }
}
