package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.AcquireLease;
import io.dagnats.leases.application.ForwardToOwner;
import io.dagnats.leases.application.LeaseListing;
import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.application.ReleaseLease;
import io.dagnats.leases.application.RenewLease;
import io.dagnats.leases.application.RevokeLease;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.Operation;
import io.dagnats.leases.protocol.Requests;
import io.nats.client.Connection;
import io.nats.service.Service;
import io.nats.service.ServiceBuilder;
import io.nats.service.ServiceEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeoutException;

/**
 * The {@code dagnats-api} micro service's lifecycle: one endpoint per lease
 * subject (the five lease operations and the operators' list and revoke), all
 * in queue group {@code dagnats-leases}, registered for discovery on
 * {@link #start()}, drained on {@link #stop(Duration)}. Each request goes to
 * the {@link Dispatcher}, which hands it to its operation's handler
 * ({@link LeaseHandlers}, {@link ForwardHandler}, {@link ListHandler},
 * {@link RevokeHandler}).
 */
public final class LeaseApi {

    public static final String VERSION = "0.1.0";

    private static final Duration SUBSCRIBED = Duration.ofSeconds(5);

    private final Connection connection;
    private final InFlight inFlight = new InFlight();
    private final Dispatcher dispatcher;
    private final List<Dispatcher.Route<?>> routes;
    private volatile Service service;

    public LeaseApi(
            Connection connection,
            LeaseBucket bucket,
            LeaseStore store,
            AcquireLease acquire,
            RenewLease renew,
            ReleaseLease release,
            ForwardToOwner forward,
            LeaseListing listing,
            RevokeLease revoke,
            LeaseTelemetry telemetry) {
        this.connection = Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(bucket, "bucket");
        this.dispatcher = new Dispatcher(connection, bucket::status, telemetry, inFlight);
        LeaseHandlers handlers = new LeaseHandlers(acquire, renew, release, store);
        ForwardHandler forwarding = new ForwardHandler(forward, () -> connection.getServerInfo().getMaxPayload());
        ListHandler listed = new ListHandler(listing, () -> connection.getServerInfo().getMaxPayload());
        RevokeHandler revoking = new RevokeHandler(revoke);
        this.routes = List.of(
                new Dispatcher.Route<>(Operation.ACQUIRE, Requests::acquire, handlers::acquire),
                new Dispatcher.Route<>(Operation.RENEW, Requests::renew, handlers::renew),
                new Dispatcher.Route<>(Operation.RELEASE, Requests::release, handlers::release),
                new Dispatcher.Route<>(Operation.OWNER, Requests::owner, handlers::owner),
                new Dispatcher.Route<>(Operation.FORWARD, Requests::forward, forwarding::forward),
                new Dispatcher.Route<>(Operation.LIST, Requests::list, listed::list),
                new Dispatcher.Route<>(Operation.REVOKE, Requests::revoke, revoking::revoke));
    }

    /** Subscribes the endpoints and registers the service for discovery. */
    public void start() {
        ServiceBuilder builder = Service.builder()
                .connection(connection)
                .name(LeaseSubjects.SERVICE_NAME)
                .version(VERSION)
                .description("dagnats leases: leader election and shard ownership over NATS request/reply");
        for (Dispatcher.Route<?> route : routes) {
            builder.addServiceEndpoint(endpoint(route));
        }
        Service built = builder.build();
        built.startService();
        service = built;
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
        Service running = service;
        if (running != null) {
            running.stop(true);
        }
        return inFlight.awaitIdle(timeout);
    }

    private ServiceEndpoint endpoint(Dispatcher.Route<?> route) {
        return ServiceEndpoint.builder()
                .endpointName(route.operation().endpointName())
                .endpointSubject(route.operation().subject())
                .endpointQueueGroup(LeaseSubjects.QUEUE_GROUP)
                .handler(message -> dispatcher.dispatch(route, message))
                .build();
    }
}
