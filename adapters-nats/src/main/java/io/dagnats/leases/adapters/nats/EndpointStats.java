package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.protocol.Kinds;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One endpoint's micro stats (ADR-030): every request taken, every error reply
 * sent (whatever its kind, {@code lost} included), and the time from taking a
 * request to handing its reply to the connection. Updated from the NATS
 * client's threads, read by {@code $SRV.STATS}.
 */
final class EndpointStats {

    /** What {@code $SRV.STATS} reports for one endpoint at one moment. */
    record Snapshot(long requests, long errors, String lastError, long processingNanos) {

        /** The mean time per request, truncated; 0 before the first request. */
        long averageProcessingNanos() {
            return requests == 0 ? 0 : processingNanos / requests;
        }
    }

    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong processingNanos = new AtomicLong();
    private volatile String lastError = "";

    /** A request was taken. */
    void received() {
        requests.incrementAndGet();
    }

    /** Its answer is an error reply; counted before the reply is sent, so a caller that saw it sees it counted. */
    void failed(WireFailure failure) {
        lastError = Kinds.wireName(failure.kind()) + ": " + failure.sentence();
        errors.incrementAndGet();
    }

    /** Its reply was handed to the connection {@code nanos} after the request was taken. */
    void answered(long nanos) {
        processingNanos.addAndGet(nanos);
    }

    Snapshot snapshot() {
        return new Snapshot(requests.get(), errors.get(), lastError, processingNanos.get());
    }
}
