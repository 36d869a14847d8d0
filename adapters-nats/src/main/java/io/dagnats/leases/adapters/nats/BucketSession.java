package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.LeaseWrite;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One request's view of the bucket (ADR-038): the verdict it was sent under, and the sequence
 * check every answer to it passes (ADR-026 rule 4). Opened once per read or write, before the
 * request is sent; every answer of that request is judged against the same verdict, so a look that
 * judges the bucket again meanwhile can never mix two verdicts into one answer.
 */
final class BucketSession {

    private final LeaseBucket bucket;
    private final BucketStatus.Ready ready;

    private BucketSession(LeaseBucket bucket, BucketStatus.Ready ready) {
        this.bucket = bucket;
        this.ready = ready;
    }

    /**
     * A session on the bucket as judged now.
     *
     * @throws LeaseFailure when the bucket is not judged ready, saying why calls are not served
     */
    static BucketSession open(LeaseBucket bucket) {
        return new BucketSession(Objects.requireNonNull(bucket, "bucket"), bucket.status().orFail());
    }

    BucketStatus.Ready ready() {
        return ready;
    }

    /**
     * Why {@code write} is not sent: a put while a replaced bucket's owners may still act, or while
     * this instance has not looked at the bucket for a while. Empty when it may be sent.
     */
    Optional<String> writeWithheld(LeaseWrite write, Instant now) {
        Optional<String> grace = ready.writeWithheld(write, now);
        return grace.isPresent() || !(write instanceof LeaseWrite.Put) ? grace : bucket.served().unlooked();
    }

    LeaseBucket.Settings settings() {
        return bucket.settings();
    }

    /** The earliest the server's clock can read now, from the last look (see {@link LeaseBucket#serverTimeAtLeast()}). */
    Optional<Instant> serverTimeAtLeast() {
        return bucket.serverTimeAtLeast();
    }

    /** The highest sequence confirmed in this session's bucket, read before a write is sent: its ack must be higher. */
    long confirmedAtSend() {
        return bucket.served().sequences(ready.identity()).map(SequenceCheck::highest).orElse(Long.MIN_VALUE);
    }

    /**
     * Passes {@code sequence} when it can be this session's bucket's, and counts it. A sequence below
     * the bucket's first, or far above the highest confirmed in it (a replacement another instance
     * made since this one looked), came from another bucket ({@link SequenceCheck}): the bucket is
     * then judged again, and the request fails {@code unavailable}.
     */
    void check(long sequence, String what) {
        Optional<String> problem = bucket.served().sequences(ready.identity())
                .map(sequences -> sequences.problem(sequence))
                .orElse(Optional.of("sequence " + sequence + ", while the bucket was being judged again"));
        if (problem.isPresent()) {
            String reason = what + " answered " + problem.get();
            bucket.served().lost(ready, reason);
            throw new LeaseFailure(ErrorKind.UNAVAILABLE, "the leases bucket changed: " + reason);
        }
        bucket.served().saw(sequence);
    }

    /**
     * Refuses the bucket for good when a write sent after {@code confirmedAtSend} was acknowledged at or
     * below it: its sequences went back (ADR-026 rule 5).
     */
    void checkAck(long ack, long confirmedAtSend, String what) {
        Optional<String> rollback = bucket.served().sequences(ready.identity())
                .flatMap(sequences -> sequences.rollback(ack, confirmedAtSend));
        if (rollback.isPresent()) {
            bucket.served().rolledBack(ready, what + ": " + rollback.get());
            throw new LeaseFailure(ErrorKind.UNSUPPORTED, "the leases bucket went back: " + rollback.get());
        }
    }

    /** The request found the bucket gone: no call is served until it has been judged again. */
    void lost(String reason) {
        bucket.served().lost(ready, reason);
    }
}
