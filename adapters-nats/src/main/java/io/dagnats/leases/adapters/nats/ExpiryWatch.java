package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import java.util.Objects;
import java.util.Optional;

/**
 * Tells telemetry of each lease expiry: the server, not dagnats, writes it, as an
 * expiry marker that the bucket republishes among the change events. Every
 * instance subscribes without a queue group and hears every marker, because a
 * marker names only the revision it removed, and only the instance that wrote
 * that revision knows whether it was a lease or a release's tombstone (whose
 * expiry is marked the same way); that instance counts it. Change events are
 * core NATS, at most once: a marker sent while this instance is disconnected is
 * not counted.
 */
public final class ExpiryWatch implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ExpiryWatch.class.getName());
    private final Connection connection;
    private final LeaseTelemetry telemetry;
    private final Dispatcher dispatcher;

    private ExpiryWatch(Connection connection, LeaseTelemetry telemetry) {
        this.connection = connection;
        this.telemetry = telemetry;
        this.dispatcher = connection.createDispatcher(this::onChange);
        dispatcher.subscribe(LeaseSubjects.CHANGED_WILDCARD);
    }

    /** Subscribes to the change events; {@link #close()} ends it. */
    public static ExpiryWatch start(Connection connection, LeaseTelemetry telemetry) {
        return new ExpiryWatch(Objects.requireNonNull(connection, "connection"),
                Objects.requireNonNull(telemetry, "telemetry"));
    }

    private void onChange(Message event) {
        try {
            expiry(event).ifPresent(expiry -> telemetry.expired(expiry.key(), expiry.lastRevision()));
        } catch (RuntimeException bug) {
            // The dispatcher must go on; a marker it could not read goes uncounted.
            LOG.log(System.Logger.Level.WARNING, "dagnats could not read a change event on " + event.getSubject()
                    + ": " + bug);
        }
    }

    /** What a change event says expired: empty for a write, or an event that is not a well-formed marker. */
    static Optional<Expiry> expiry(Message event) {
        Headers headers = event.getHeaders();
        if (headers == null || !Subjects.MARKER_REASON_EXPIRED.equals(headers.getFirst(Subjects.HEADER_MARKER_REASON))
                || !event.getSubject().startsWith(LeaseSubjects.CHANGED_PREFIX)) {
            return Optional.empty();
        }
        Optional<Fence> removed = LeaseHeaders.parseFence(headers.getFirst(Subjects.HEADER_LAST_SEQUENCE));
        if (removed.isEmpty()) {
            return Optional.empty();
        }
        return Subjects.keyOfChange(event.getSubject()).map(key -> new Expiry(key, removed.get()));
    }

    /** @param lastRevision the revision of the message the server removed */
    record Expiry(LeaseKey key, Fence lastRevision) {
    }

    @Override
    public void close() {
        if (connection.getStatus() != Connection.Status.CLOSED) {
            connection.closeDispatcher(dispatcher);
        }
    }
}
