package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Lost;
import io.dagnats.leases.domain.Release;
import io.dagnats.leases.protocol.Replies;
import java.util.Objects;
import java.util.Optional;

/**
 * What one request is answered with: the reply body, what it tells telemetry
 * about how the request ended, and, for an error reply, its kind and sentence
 * (sent again in the micro error headers and counted in the service's stats).
 */
record Answer(byte[] body, LeaseTelemetry.Facts facts, Optional<WireFailure> failure) {

    Answer {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(facts, "facts");
        Objects.requireNonNull(failure, "failure");
    }

    /** A normal answer: not an error reply. */
    Answer(byte[] body, LeaseTelemetry.Facts facts) {
        this(body, facts, Optional.empty());
    }

    /** A lease answer naming {@code lease}. */
    static Answer of(byte[] body, LeaseTelemetry.Facts.Result result, Lease lease) {
        return new Answer(body, LeaseTelemetry.Facts.Answered.of(result, lease));
    }

    /** The lease view with {@code granted}: an acquire's, renew's, attach's or move's answer naming {@code lease}. */
    static Answer lease(Lease lease, boolean granted, LeaseTelemetry.Facts.Result result) {
        return of(Replies.lease(lease, granted), result, lease);
    }

    /** A release's or a detach's answer: the release form, or lost. */
    static Answer released(Release outcome) {
        return outcome instanceof Release.Released released
                ? new Answer(Replies.released(released), new LeaseTelemetry.Facts.Answered(
                        LeaseTelemetry.Facts.Result.RELEASED, released.key(), released.holder(), released.revision()))
                : lost((Lost) outcome);
    }

    /** The caller no longer owns the key: it must stop acting as owner now. */
    static Answer lost(Lost lost) {
        return failed(ErrorKind.LOST, lost.sentence(), lost.key());
    }

    /** An error reply before (or without) a key: bad input, the bucket refused, a failure. */
    static Answer failed(ErrorKind kind, String sentence) {
        return new Answer(Replies.error(kind, sentence), LeaseTelemetry.Facts.Failed.bare(kind),
                failure(kind, sentence));
    }

    /** An error reply about {@code key}, with no lease to name. */
    static Answer failed(ErrorKind kind, String sentence, LeaseKey key) {
        return new Answer(Replies.error(kind, sentence),
                new LeaseTelemetry.Facts.Failed(kind, Optional.of(key), Optional.empty()), failure(kind, sentence));
    }

    /** A forward's error reply, naming the lease it last tried to deliver under. */
    static Answer forwardFailed(ErrorKind kind, String sentence, Lease lastTried) {
        return new Answer(Replies.forwardError(kind, sentence, lastTried),
                new LeaseTelemetry.Facts.Failed(kind, Optional.of(lastTried.key()), Optional.of(lastTried)),
                failure(kind, sentence));
    }

    private static Optional<WireFailure> failure(ErrorKind kind, String sentence) {
        return Optional.of(new WireFailure(kind, sentence));
    }
}
