package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.AcquireLease;
import io.dagnats.leases.application.ForwardToOwner;
import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.application.ReleaseLease;
import io.dagnats.leases.application.RenewLease;
import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Lost;
import io.dagnats.leases.domain.Release;
import io.dagnats.leases.domain.Renewal;
import io.dagnats.leases.protocol.Kinds;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.Operation;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Request;
import io.dagnats.leases.protocol.Requests;
import io.nats.client.Connection;
import io.nats.service.Service;
import io.nats.service.ServiceEndpoint;
import io.nats.service.ServiceMessage;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The {@code dagnats-api} micro service: one endpoint per lease subject, all in
 * queue group {@code dagnats-leases}. A handler decodes, starts the use case and
 * returns; the reply is sent when JetStream answers, so one slow call never
 * holds up the dispatcher.
 */
public final class LeaseApi {

    public static final String VERSION = "0.1.0";

    private static final System.Logger LOG = System.getLogger(LeaseApi.class.getName());
    private static final String TRACEPARENT = "traceparent";
    private static final String TRACESTATE = "tracestate";

    /** The reply body, and what it tells telemetry. */
    private record Reply(byte[] body, LeaseTelemetry.Facts facts) {

        static Reply of(byte[] body, LeaseTelemetry.Facts.Result result, Lease lease) {
            return new Reply(body, LeaseTelemetry.Facts.Answered.of(result, lease));
        }

        static Reply error(ErrorKind kind, byte[] body, LeaseKey key, Lease lastTried) {
            return new Reply(body, new LeaseTelemetry.Facts.Failed(kind, Optional.ofNullable(key),
                    Optional.ofNullable(lastTried)));
        }
    }

    private final Connection connection;
    private static final Duration SUBSCRIBED = Duration.ofSeconds(5);

    private final LeaseBucket bucket;
    private final LeaseStore store;
    private final AcquireLease acquire;
    private final RenewLease renew;
    private final ReleaseLease release;
    private final ForwardToOwner forward;
    private final LeaseTelemetry telemetry;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Object idle = new Object();
    private volatile Service service;

    public LeaseApi(
            Connection connection,
            LeaseBucket bucket,
            LeaseStore store,
            AcquireLease acquire,
            RenewLease renew,
            ReleaseLease release,
            ForwardToOwner forward,
            LeaseTelemetry telemetry) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.store = Objects.requireNonNull(store, "store");
        this.acquire = Objects.requireNonNull(acquire, "acquire");
        this.renew = Objects.requireNonNull(renew, "renew");
        this.release = Objects.requireNonNull(release, "release");
        this.forward = Objects.requireNonNull(forward, "forward");
        this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
    }

    /** Subscribes the endpoints and registers the service for discovery. */
    public void start() {
        Service built = Service.builder()
                .connection(connection)
                .name(LeaseSubjects.SERVICE_NAME)
                .version(VERSION)
                .description("dagnats leases: leader election and shard ownership over NATS request/reply")
                .addServiceEndpoint(endpoint(Operation.ACQUIRE, body -> acquire(Requests.acquire(body))))
                .addServiceEndpoint(endpoint(Operation.RENEW, body -> renew(Requests.renew(body))))
                .addServiceEndpoint(endpoint(Operation.RELEASE, body -> release(Requests.release(body))))
                .addServiceEndpoint(endpoint(Operation.OWNER, body -> owner(Requests.owner(body))))
                .addServiceEndpoint(endpoint(Operation.FORWARD, body -> forward(Requests.forward(body))))
                .build();
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
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (idle) {
            while (inFlight.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(idle, left);
            }
        }
        return true;
    }

    /** @param handler decodes the request body and starts the use case */
    private ServiceEndpoint endpoint(Operation operation, Function<byte[], CompletionStage<Reply>> handler) {
        return ServiceEndpoint.builder()
                .endpointName(operation.endpointName())
                .endpointSubject(operation.subject())
                .endpointQueueGroup(LeaseSubjects.QUEUE_GROUP)
                .handler(message -> handle(operation.endpointName(), message, handler))
                .build();
    }

    private void handle(String operation, ServiceMessage message, Function<byte[], CompletionStage<Reply>> handler) {
        inFlight.incrementAndGet();
        LeaseTelemetry.RequestRecord record =
                telemetry.startRequest(operation, message.getSubject(), traceHeaders(message));
        CompletionStage<Reply> reply = record.within(() -> {
            try {
                if (bucket.status() instanceof BucketStatus.Unsupported unsupported) {
                    return CompletableFuture.completedFuture(failure(ErrorKind.UNSUPPORTED, unsupported.reason()));
                }
                return handler.apply(message.getData());
            } catch (InvalidLeaseInput invalid) {
                return CompletableFuture.completedFuture(failure(ErrorKind.INVALID, invalid.getMessage()));
            } catch (RuntimeException bug) {
                return CompletableFuture.failedFuture(bug);
            }
        });
        reply.handle((answer, thrown) -> thrown == null ? answer : fromFailure(operation, thrown))
                .thenAccept(answer -> {
                    try {
                        respond(message, answer.body());
                        record.end(answer.facts());
                    } finally {
                        done();
                    }
                });
    }

    /** Only the W3C trace context headers: nothing else of the caller's reaches telemetry. */
    private static Map<String, String> traceHeaders(ServiceMessage message) {
        if (!message.hasHeaders()) {
            return Map.of();
        }
        String parent = message.getHeaders().getFirst(TRACEPARENT);
        if (parent == null) {
            return Map.of();
        }
        String state = message.getHeaders().getFirst(TRACESTATE);
        return state == null ? Map.of(TRACEPARENT, parent) : Map.of(TRACEPARENT, parent, TRACESTATE, state);
    }

    private CompletionStage<Reply> acquire(Request.Acquire request) {
        AcquireLease.Command command = new AcquireLease.Command(request.key(), request.holder(), request.ttl());
        return acquire.execute(command).thenApply(acquisition -> acquisition instanceof Acquisition.Granted granted
                ? Reply.of(Replies.lease(granted.lease(), true), LeaseTelemetry.Facts.Result.GRANTED, granted.lease())
                : Reply.of(Replies.lease(acquisition.lease(), false), LeaseTelemetry.Facts.Result.HELD, acquisition.lease()));
    }

    private CompletionStage<Reply> renew(Request.Renew request) {
        RenewLease.Command command =
                new RenewLease.Command(request.key(), request.holder(), request.revision(), request.ttl());
        return renew.execute(command).thenApply(renewal -> renewal instanceof Renewal.Renewed renewed
                ? Reply.of(Replies.lease(renewed.lease(), true), LeaseTelemetry.Facts.Result.RENEWED, renewed.lease())
                : lost((Lost) renewal));
    }

    private CompletionStage<Reply> release(Request.Release request) {
        ReleaseLease.Command command = new ReleaseLease.Command(request.key(), request.holder(), request.revision());
        return release.execute(command).thenApply(answer -> answer instanceof Release.Released released
                ? new Reply(Replies.released(released), new LeaseTelemetry.Facts.Answered(
                        LeaseTelemetry.Facts.Result.RELEASED, released.key(), released.holder(), released.revision()))
                : lost((Lost) answer));
    }

    private CompletionStage<Reply> owner(Request.Owner request) {
        LeaseKey key = request.key();
        return store.read(key).thenApply(state -> state instanceof KeyState.Held held
                ? Reply.of(Replies.owner(state), LeaseTelemetry.Facts.Result.HELD, held.lease())
                : new Reply(Replies.owner(state), new LeaseTelemetry.Facts.Free(key)));
    }

    private CompletionStage<Reply> forward(Request.Forward request) {
        return forward.execute(new ForwardToOwner.Command(request.key(), request.payload(), request.timeout()))
                .thenApply(this::forwarded);
    }

    private Reply forwarded(ForwardToOwner.Outcome outcome) {
        if (outcome instanceof ForwardToOwner.Outcome.Delivered delivered) {
            byte[] body = Replies.forwarded(delivered.owner(), delivered.reply());
            long limit = connection.getServerInfo().getMaxPayload();
            if (body.length > limit) {
                return forwardFailure(ErrorKind.REPLY_TOO_LARGE,
                        "the owner's reply is " + delivered.reply().length + " bytes; base64 in the reply JSON it is "
                                + body.length + " bytes, over the server's max_payload of " + limit,
                        delivered.owner());
            }
            return Reply.of(body, LeaseTelemetry.Facts.Result.DELIVERED, delivered.owner());
        }
        if (outcome instanceof ForwardToOwner.Outcome.NoOwner noOwner) {
            return Reply.error(ErrorKind.NO_OWNER, Replies.error(ErrorKind.NO_OWNER, "nobody holds " + noOwner.key()),
                    noOwner.key(), null);
        }
        if (outcome instanceof ForwardToOwner.Outcome.OwnerUnavailable unavailable) {
            return forwardFailure(ErrorKind.OWNER_UNAVAILABLE, "nobody listens on the inbox of "
                    + unavailable.lastTried().holder() + ", the owner of " + unavailable.lastTried().key(),
                    unavailable.lastTried());
        }
        if (outcome instanceof ForwardToOwner.Outcome.OwnerRejected rejected) {
            return forwardFailure(ErrorKind.OWNER_REJECTED, rejected.lastTried().holder()
                    + " rejected the request as stale: it is not acting as owner of " + rejected.lastTried().key()
                    + " under revision " + rejected.lastTried().revision(), rejected.lastTried());
        }
        ForwardToOwner.Outcome.OwnerTimeout timeout = (ForwardToOwner.Outcome.OwnerTimeout) outcome;
        return forwardFailure(ErrorKind.OWNER_TIMEOUT, timeout.lastTried().holder()
                + " did not answer in time; it may have processed the request", timeout.lastTried());
    }

    private static Reply forwardFailure(ErrorKind kind, String sentence, Lease lastTried) {
        return Reply.error(kind, Replies.forwardError(kind, sentence, lastTried), lastTried.key(), lastTried);
    }

    private static Reply lost(Lost lost) {
        return Reply.error(ErrorKind.LOST, Replies.error(ErrorKind.LOST, lost.sentence()), lost.key(), null);
    }

    private static Reply failure(ErrorKind kind, String sentence) {
        return Reply.error(kind, Replies.error(kind, sentence), null, null);
    }

    private static Reply fromFailure(String operation, Throwable thrown) {
        Throwable cause = Stages.cause(thrown);
        if (cause instanceof InvalidLeaseInput invalid) {
            return failure(ErrorKind.INVALID, invalid.getMessage());
        }
        if (cause instanceof LeaseFailure failure) {
            if (failure.kind() == ErrorKind.INTERNAL) {
                LOG.log(System.Logger.Level.WARNING, operation + " failed: " + failure.getMessage());
            }
            return failure(failure.kind(), failure.getMessage());
        }
        LOG.log(System.Logger.Level.ERROR, operation + " failed unexpectedly", cause);
        return failure(ErrorKind.INTERNAL, "dagnats failed to answer this " + operation + "; see its log");
    }

    private void respond(ServiceMessage message, byte[] body) {
        if (message.getReplyTo() == null) {
            return; // a publish, not a request: nobody to answer, nothing worth a log line
        }
        try {
            message.respond(connection, body);
        } catch (RuntimeException closed) {
            LOG.log(System.Logger.Level.WARNING, "could not send a reply: " + closed.getMessage());
        }
    }

    private void done() {
        if (inFlight.decrementAndGet() == 0) {
            synchronized (idle) {
                idle.notifyAll();
            }
        }
    }
}
