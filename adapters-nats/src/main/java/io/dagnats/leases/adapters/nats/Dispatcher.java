package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.domain.Caller;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.protocol.Operation;
import io.dagnats.leases.protocol.ServiceErrors;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Every lease request passes through here: counted for the drain and for the
 * endpoint's micro stats, recorded for telemetry, refused when the bucket cannot
 * serve leases, then decoded and handed to its operation's handler. The reply is
 * sent from the thread that completes the handler's stage (the NATS client's,
 * once JetStream answers), in one stage with the stats and the record, so the
 * dispatcher thread never waits and no thread is woken only to move the work
 * on. With telemetry off nothing is done for it (no trace headers read, no
 * record). An error reply carries the micro error headers besides its JSON body.
 */
final class Dispatcher {

    private static final System.Logger LOG = System.getLogger(Dispatcher.class.getName());
    private static final String TRACEPARENT = "traceparent";
    private static final String TRACESTATE = "tracestate";

    /**
     * One operation: how its request body is read, and the handler that answers
     * the typed request.
     */
    record Route<R>(Operation operation, Function<byte[], R> decode,
            BiFunction<R, Caller, CompletionStage<Answer>> handler) {

        Route {
            Objects.requireNonNull(operation, "operation");
            Objects.requireNonNull(decode, "decode");
            Objects.requireNonNull(handler, "handler");
        }

        /** A route whose handler needs no caller: identity mode does not change what it does. */
        static <R> Route<R> anyCaller(Operation operation, Function<byte[], R> decode,
                Function<R, CompletionStage<Answer>> handler) {
            return new Route<>(operation, decode, (request, caller) -> handler.apply(request));
        }

        /** @throws RuntimeException when the body is not a valid request, or the handler fails to start */
        CompletionStage<Answer> answer(byte[] body, Caller caller) {
            return handler.apply(decode.apply(body), caller);
        }
    }

    private final Connection connection;
    private final Supplier<BucketStatus> bucket;
    private final LeaseTelemetry telemetry;
    private final InFlight inFlight;
    private final RequestIdentity identity;

    /** @param bucket the bucket's current status, asked once per request */
    Dispatcher(Connection connection, Supplier<BucketStatus> bucket, LeaseTelemetry telemetry, InFlight inFlight) {
        this(connection, bucket, telemetry, inFlight, RequestIdentity.OFF);
    }

    /**
     * @param bucket   the bucket's current status, asked once per request
     * @param identity how a request's caller is known (ADR-036)
     */
    Dispatcher(Connection connection, Supplier<BucketStatus> bucket, LeaseTelemetry telemetry, InFlight inFlight,
            RequestIdentity identity) {
        this.identity = Objects.requireNonNull(identity, "identity");
        this.connection = Objects.requireNonNull(connection, "connection");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
        this.inFlight = Objects.requireNonNull(inFlight, "inFlight");
    }

    /** Answers {@code message}, a request for {@code route}, counting it in {@code stats}. */
    void dispatch(Route<?> route, Message message, EndpointStats stats) {
        long received = System.nanoTime();
        inFlight.enter();
        stats.received();
        String operation = route.operation().endpointName();
        LeaseTelemetry.RequestRecord record;
        CompletionStage<Answer> answer;
        if (telemetry.records()) {
            record = telemetry.startRequest(operation, message.getSubject(), traceHeaders(message));
            answer = record.within(() -> start(route, operation, message));
        } else {
            record = LeaseTelemetry.RequestRecord.NONE;
            answer = start(route, operation, message);
        }
        answer.handle((answered, thrown) -> {
            try {
                Answer sent = thrown == null ? answered : Failures.answer(operation, thrown);
                sent.failure().ifPresent(stats::failed);
                respond(message, sent);
                stats.answered(System.nanoTime() - received);
                record.end(sent.facts());
            } finally {
                inFlight.exit();
            }
            return null;
        });
    }

    /**
     * Who calls, the bucket gate, then the handler; whatever any throws is answered, never left to
     * the dispatcher thread. A caller the server did not vouch for learns nothing else, not even
     * whether leases are served.
     */
    private CompletionStage<Answer> start(Route<?> route, String operation, Message message) {
        RequestIdentity.Identified identified = forgedRequestInfo(message)
                ? new RequestIdentity.Identified.Refused("identity mode: the request carries a "
                        + RequestIdentity.REQUEST_INFO + " header the server did not write")
                : identity.identify(message.hasHeaders()
                        ? message.getHeaders().getFirst(RequestIdentity.REQUEST_INFO) : null, message.getReplyTo());
        if (identified instanceof RequestIdentity.Identified.Refused refused) {
            return CompletableFuture.completedFuture(Answer.failed(ErrorKind.FORBIDDEN, refused.sentence()));
        }
        Caller caller = ((RequestIdentity.Identified.Known) identified).caller();
        byte[] body = message.getData();
        Optional<BucketStatus.Refusal> refusal = bucket.get().refusal();
        if (refusal.isPresent()) {
            // Before the body is read: on a server that cannot serve leases, every call says so, even a malformed one.
            return CompletableFuture.completedFuture(Answer.failed(refusal.get().kind(), refusal.get().sentence()));
        }
        try {
            return route.answer(body, caller);
        } catch (RuntimeException thrown) {
            return CompletableFuture.completedFuture(Failures.answer(operation, thrown));
        }
    }

    /**
     * Whether a client's own {@link RequestIdentity#REQUEST_INFO} reached dagnats beside the server's:
     * nats-server replaces only a header of exactly that name at the start of its line, so a
     * client's {@code "Nats-Request-Info : ..."} (or one after a tab) survives the import, and
     * jnats reads it, trimmed, as a second value of the same name, ahead of the server's. The
     * server writes exactly one; more than one, or a name that differs only in case or spacing,
     * was written by a client. Only identity mode asks; with it off the header means nothing.
     */
    private boolean forgedRequestInfo(Message message) {
        if (identity == RequestIdentity.OFF || !message.hasHeaders()) {
            return false;
        }
        for (String name : message.getHeaders().keySet()) {
            if (name.strip().equalsIgnoreCase(RequestIdentity.REQUEST_INFO) && !name.equals(RequestIdentity.REQUEST_INFO)) {
                return true;
            }
        }
        java.util.List<String> values = message.getHeaders().get(RequestIdentity.REQUEST_INFO);
        return values != null && values.size() != 1;
    }

    /** Only the W3C trace context headers: nothing else of the caller's reaches telemetry. */
    private static Map<String, String> traceHeaders(Message message) {
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

    private void respond(Message message, Answer answered) {
        if (message.getReplyTo() == null) {
            return; // a publish, not a request: nobody to answer, nothing worth a log line
        }
        try {
            connection.publish(message.getReplyTo(), answered.failure().map(Dispatcher::errorHeaders).orElse(null),
                    answered.body());
        } catch (RuntimeException closed) {
            LOG.log(System.Logger.Level.WARNING, "could not send a reply: " + closed.getMessage());
        }
    }

    /** The micro error headers: added to the JSON body, which stays the contract callers parse (ADR-030). */
    static Headers errorHeaders(WireFailure failure) {
        return new Headers()
                .put(ServiceErrors.ERROR, ServiceErrors.headerValue(failure.sentence()))
                .put(ServiceErrors.CODE, Integer.toString(ServiceErrors.code(failure.kind())));
    }
}
