package io.dagnats.leases.adapters.nats;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether a sequence an answer carries can come from the bucket judged ready (ADR-026 rule 4),
 * and the highest sequence confirmed in it so far. One per bucket identity; every accepted
 * answer and every look raises it. Cheap: a volatile read, and a compare-and-set only when the
 * highest grows.
 *
 * <p>Every sequence of a bucket is at least its first. And a bucket dagnats creates to replace
 * one starts at least {@link BucketHistory#UNSEEN_WRITES} above everything its creator saw, so a
 * sequence more than {@link #FOREIGN_ABOVE} above the highest confirmed here came from a bucket
 * that replaced this one since this instance last looked (another instance replaced it).
 */
final class SequenceCheck {

    /**
     * Half the slack a replacement starts above its creator's highest sequence: far more than
     * this bucket can take between two answers this instance sees, far less than a replacement's jump.
     */
    static final long FOREIGN_ABOVE = BucketHistory.UNSEEN_WRITES / 2;

    private final BucketIdentity identity;
    private final AtomicLong highest;

    /** @param lastSequence the bucket's last sequence as a look saw it (0 or less when empty) */
    SequenceCheck(BucketIdentity identity, long lastSequence) {
        this.identity = Objects.requireNonNull(identity, "identity");
        this.highest = new AtomicLong(Math.max(identity.firstSequence() - 1, lastSequence));
    }

    BucketIdentity identity() {
        return identity;
    }

    /** The highest sequence confirmed in this bucket. */
    long highest() {
        return highest.get();
    }

    /** A look at the same bucket saw {@code lastSequence}. */
    void confirmed(long lastSequence) {
        raise(lastSequence);
    }

    /**
     * Why {@code sequence} cannot be this bucket's; empty when it can, and it is then counted as
     * confirmed.
     */
    Optional<String> problem(long sequence) {
        if (sequence < identity.firstSequence()) {
            return Optional.of("sequence " + sequence + ", below the bucket's first sequence " + identity.firstSequence());
        }
        long known = highest.get();
        if (sequence - known > FOREIGN_ABOVE) {
            return Optional.of("sequence " + sequence + ", more than " + FOREIGN_ABOVE
                    + " above the highest confirmed in the bucket (" + known + "): another bucket answered");
        }
        raise(sequence);
        return Optional.empty();
    }

    /**
     * Why a write acknowledged at {@code ack} proves the bucket went back (a restored backup);
     * empty when it does not. {@code confirmedAtSend} is {@link #highest()} read before the write
     * was sent: the stream had that sequence then, so the write must get a higher one. (Acks of
     * concurrent writes arrive in any order: an ack below one confirmed later proves nothing.)
     */
    Optional<String> rollback(long ack, long confirmedAtSend) {
        if (ack > confirmedAtSend) {
            return Optional.empty();
        }
        return Optional.of("a write sent after sequence " + confirmedAtSend + " was confirmed in it was acknowledged at "
                + ack);
    }

    private void raise(long sequence) {
        long known;
        while (sequence > (known = highest.get()) && !highest.compareAndSet(known, sequence)) {
            // another answer raised it meanwhile: compare again
        }
    }
}
