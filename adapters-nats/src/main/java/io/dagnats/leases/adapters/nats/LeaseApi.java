package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.AcquireLease;
import io.dagnats.leases.application.AttachedKeys;
import io.dagnats.leases.application.ForwardToOwner;
import io.dagnats.leases.application.HandOverLease;
import io.dagnats.leases.application.LeaseListing;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.application.ReadLease;
import io.dagnats.leases.application.ReleaseLease;
import io.dagnats.leases.application.RenewLease;
import io.dagnats.leases.application.RevokeLease;
import io.dagnats.leases.protocol.Operation;
import io.dagnats.leases.protocol.Requests;
import io.dagnats.leases.protocol.ServiceDescription;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * The {@code dagnats-api} micro service's lifecycle: one endpoint per lease
 * subject (the lease operations, handover and candidates included, and the operators' list and revoke), all
 * in queue group {@code dagnats-leases}, answered with discovery ({@code $SRV.*})
 * by the {@link MicroResponder} from {@link #start()}, drained on
 * {@link #stop(Duration)}. Each request goes to the {@link Dispatcher}, which
 * hands it to its operation's handler ({@link LeaseHandlers},
 * {@link ForwardHandler}, {@link ListHandler}, {@link RevokeHandler}, {@link HandoverHandlers}).
 */
public final class LeaseApi {

    private static final Duration SUBSCRIBED = Duration.ofSeconds(5);

    private final Connection connection;
    private final LeaseBucket bucket;
    private final InFlight inFlight = new InFlight();
    private final MicroResponder responder;
    private final String version;
    /** How this instance is set up (authentication, telemetry...), published beside the standard metadata. */
    private volatile Map<String, String> details = Map.of();
    private final FreedEvents freed;

    /**
     * @param identity how a request's caller is known: {@link RequestIdentity#OFF}, or identity mode (ADR-036)
     * @param version  dagnats' version, as its micro info and the {@code version} metadata give it
     */
    public LeaseApi(
            Connection connection,
            LeaseBucket bucket,
            ReadLease owner,
            AcquireLease acquire,
            RenewLease renew,
            ReleaseLease release,
            ForwardToOwner forward,
            LeaseListing listing,
            RevokeLease revoke,
            HandOverLease handover,
            LeaseTelemetry telemetry,
            RequestIdentity identity,
            String version,
            AttachedKeys attached,
            DeadAttachments dead) {
        this.version = Objects.requireNonNull(version, "version");
        this.connection = Objects.requireNonNull(connection, "connection");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        Dispatcher dispatcher = new Dispatcher(connection, bucket::status, telemetry, inFlight, identity);
        LeaseHandlers handlers = new LeaseHandlers(acquire, renew, release, owner);
        ForwardHandler forwarding = new ForwardHandler(forward, () -> connection.getServerInfo().getMaxPayload());
        ListHandler listed = new ListHandler(listing, () -> connection.getServerInfo().getMaxPayload());
        RevokeHandler revoking = new RevokeHandler(revoke);
        HandoverHandlers handing = new HandoverHandlers(handover, new CandidateGathering(connection));
        AttachHandlers attaching = new AttachHandlers(attached);
        List<Dispatcher.Route<?>> routes = List.of(
                new Dispatcher.Route<>(Operation.ACQUIRE, Requests::acquire, handlers::acquire),
                new Dispatcher.Route<>(Operation.RENEW, Requests::renew, handlers::renew),
                new Dispatcher.Route<>(Operation.RELEASE, Requests::release, handlers::release),
                new Dispatcher.Route<>(Operation.OWNER, Requests::owner, handlers::owner),
                new Dispatcher.Route<>(Operation.FORWARD, Requests::forward, forwarding::forward),
                new Dispatcher.Route<>(Operation.LIST, Requests::list, listed::list),
                new Dispatcher.Route<>(Operation.REVOKE, Requests::revoke, revoking::revoke),
                new Dispatcher.Route<>(Operation.HANDOVER, Requests::handover, handing::handover),
                new Dispatcher.Route<>(Operation.CANDIDATES, Requests::candidates, handing::candidates),
                new Dispatcher.Route<>(Operation.ATTACH, Requests::attach, attaching::attach),
                new Dispatcher.Route<>(Operation.DETACH, Requests::detach, attaching::detach),
                new Dispatcher.Route<>(Operation.MOVE, Requests::move, attaching::move));
        this.responder = new MicroResponder(connection, dispatcher, routes, version, this::metadata);
        this.freed = new FreedEvents(connection, attached, listing, dead);
    }

    /**
     * Publishes {@code details} in the service metadata from now on, after the standard keys. Given
     * after construction because part of them (the HTTP port) is known only once the HTTP endpoints
     * listen, which is after this API is built; call it before {@link #start()}.
     */
    public void describe(Map<String, String> details) {
        this.details = Map.copyOf(details);
    }

    /** Subscribes the endpoints and the discovery subjects. */
    public void start() {
        responder.start();
        freed.start();
        try {
            // A round trip after the subscriptions: once start returns, the server routes requests to them.
            connection.flush(SUBSCRIBED);
        } catch (TimeoutException | InterruptedException notConfirmed) {
            if (notConfirmed instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            // Serving anyway: the subscriptions reach the server with the connection's next flush.
        }
    }

    /**
     * Stops taking requests, then waits up to {@code timeout} for the ones in
     * flight to be answered.
     *
     * @return true when every request in flight was answered
     */
    public boolean stop(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean taken = responder.stop(timeout);
        freed.close();
        return inFlight.awaitIdle(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))) && taken;
    }

    /**
     * The service metadata as it is now (ADR-030): whether leases are served can
     * change while serving (JetStream answers late, the bucket is made unsafe).
     */
    private Map<String, String> metadata() {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put(ServiceDescription.VERSION, version);
        metadata.put(ServiceDescription.BUCKET, Subjects.BUCKET);
        metadata.put(ServiceDescription.NATS_SERVER_VERSION, bucket.serverVersion());
        Optional<BucketStatus.Refusal> refusal = bucket.status().refusal();
        metadata.put(ServiceDescription.LEASES_SUPPORTED, Boolean.toString(refusal.isEmpty()));
        refusal.ifPresent(refused -> metadata.put(ServiceDescription.UNSUPPORTED_REASON, refused.sentence()));
        details.forEach(metadata::putIfAbsent);
        return metadata;
    }
}
