package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.Replies;
import java.util.Optional;

/**
 * What one request is answered with: the reply body, and what it tells
 * telemetry about how the request ended.
 */
record Answer(byte[] body, LeaseTelemetry.Facts facts) {

    /** A lease answer naming {@code lease}. */
    static Answer of(byte[] body, LeaseTelemetry.Facts.Result result, Lease lease) {
        return new Answer(body, LeaseTelemetry.Facts.Answered.of(result, lease));
    }

    /** An error reply before (or without) a key: bad input, the bucket refused, a failure. */
    static Answer failed(ErrorKind kind, String sentence) {
        return new Answer(Replies.error(kind, sentence), LeaseTelemetry.Facts.Failed.bare(kind));
    }

    /** An error reply about {@code key}, with no lease to name. */
    static Answer failed(ErrorKind kind, String sentence, LeaseKey key) {
        return new Answer(Replies.error(kind, sentence),
                new LeaseTelemetry.Facts.Failed(kind, Optional.of(key), Optional.empty()));
    }

    /** A forward's error reply, naming the lease it last tried to deliver under. */
    static Answer forwardFailed(ErrorKind kind, String sentence, Lease lastTried) {
        return new Answer(Replies.forwardError(kind, sentence, lastTried),
                new LeaseTelemetry.Facts.Failed(kind, Optional.of(lastTried.key()), Optional.of(lastTried)));
    }
}
