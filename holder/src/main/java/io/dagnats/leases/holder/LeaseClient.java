package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.holder.internal.CallOutcomes;
import io.dagnats.leases.holder.internal.HealthWatch;
import io.dagnats.leases.holder.internal.HolderTelemetry;
import io.dagnats.leases.holder.internal.LeaseCalls;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.AttachedAndHandoverReplies;
import io.dagnats.leases.protocol.DagnatsException;
import io.dagnats.leases.protocol.Kinds;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.Operation;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Request;
import io.dagnats.leases.protocol.Requests;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Typed calls to the five lease subjects, and the read-only listing, over a
 * NATS connection you own.
 * Every call is asynchronous; normal answers are values ({@link Answers}),
 * and a stage fails only with {@link DagnatsException}.
 */
public final class LeaseClient implements LeaseCalls {

    /** Added to a forward's own timeout so dagnats' answer, not ours, reports an owner timeout. */
    private static final Duration FORWARD_MARGIN = Duration.ofSeconds(1);

    private final Connection connection;
    private final Duration requestTimeout;
    private final HolderTelemetry telemetry;
    /** Hears whether each call was answered: a holder's {@link HealthWatch}. */
    private final CallOutcomes outcomes;

    /**
     * @param requestTimeout how long to wait for dagnats' answer (not for forwards, see {@link #forward})
     * @param openTelemetry  where the client spans of these calls go; {@link OpenTelemetry#noop()} for none
     */
    public LeaseClient(Connection connection, Duration requestTimeout, OpenTelemetry openTelemetry) {
        this(connection, requestTimeout, new HolderTelemetry(openTelemetry, Map::of, connection::getConnectedUrl),
                CallOutcomes.IGNORED);
    }

    public LeaseClient(Connection connection) {
        this(connection, Duration.ofSeconds(5), OpenTelemetry.noop());
    }

    LeaseClient(Connection connection, Duration requestTimeout, HolderTelemetry telemetry, CallOutcomes outcomes) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
        this.outcomes = Objects.requireNonNull(outcomes, "outcomes");
    }

    /** An acquire as a plain holder, with no incarnation. */
    public CompletableFuture<Answers.Acquire> acquire(LeaseKey key, HolderId holder, LeaseTtl ttl) {
        return acquire(key, Claimant.of(holder), ttl);
    }

    /** An acquire as {@code holder}: its holder id and, if it has one, its incarnation. */
    @Override
    public CompletableFuture<Answers.Acquire> acquire(LeaseKey key, Claimant holder, LeaseTtl ttl) {
        return call(() -> new Request.Acquire(key, holder.holder(), holder.incarnation(), ttl), requestTimeout,
                Replies::decodeAcquire);
    }

    /** A renew as a plain holder; {@code ttl} is the new TTL, or empty to keep the lease's current one. */
    public CompletableFuture<Answers.Renew> renew(LeaseKey key, HolderId holder, Fence revision, Optional<LeaseTtl> ttl) {
        return renew(key, Claimant.of(holder), revision, ttl);
    }

    /** @param ttl the new TTL, or empty to keep the lease's current one */
    @Override
    public CompletableFuture<Answers.Renew> renew(LeaseKey key, Claimant holder, Fence revision, Optional<LeaseTtl> ttl) {
        return call(() -> new Request.Renew(key, holder.holder(), holder.incarnation(), revision, ttl), requestTimeout,
                Replies::decodeRenew);
    }

    /** A release as a plain holder. */
    public CompletableFuture<Answers.Release> release(LeaseKey key, HolderId holder, Fence revision) {
        return release(key, Claimant.of(holder), revision);
    }

    @Override
    public CompletableFuture<Answers.Release> release(LeaseKey key, Claimant holder, Fence revision) {
        return call(() -> new Request.Release(key, holder.holder(), holder.incarnation(), revision), requestTimeout,
                Replies::decodeRelease);
    }

    /**
     * Hands {@code holder}'s lease at {@code revision} to {@code successor} (ADR-042). Call it only
     * once this process has stopped acting as owner: the successor may own the key as soon as the
     * write lands.
     */
    public CompletableFuture<Answers.Handover> handover(LeaseKey key, Claimant holder, Fence revision, Claimant successor,
            Optional<LeaseTtl> ttl) {
        return call(() -> new Request.Handover(key, holder.holder(), holder.incarnation(), revision, successor, ttl),
                requestTimeout, AttachedAndHandoverReplies::decodeHandover);
    }

    /** A handover keeping the lease's TTL for the successor. */
    @Override
    public CompletableFuture<Answers.Handover> handover(LeaseKey key, Claimant holder, Fence revision, Claimant successor) {
        return handover(key, holder, revision, successor, Optional.empty());
    }

    /**
     * ADR-043: attaches {@code key} to {@code holder}'s member lease {@code member} at the tenure that
     * began at {@code memberTenure}; idempotent. {@code value}: a short string stored with the key.
     */
    public CompletableFuture<Answers.Attach> attach(LeaseKey key, Claimant holder, LeaseKey member, Fence memberTenure,
            Optional<String> value) {
        return call(() -> new Request.Attach(key, holder.holder(), holder.incarnation(), member, memberTenure, value),
                requestTimeout, AttachedAndHandoverReplies::decodeAttach);
    }

    /** ADR-043: detaches {@code key}, {@code holder}'s at {@code revision}: free afterwards. */
    public CompletableFuture<Answers.Release> detach(LeaseKey key, Claimant holder, Fence revision) {
        return call(() -> new Request.Detach(key, holder.holder(), holder.incarnation(), revision), requestTimeout,
                AttachedAndHandoverReplies::decodeDetach);
    }

    /** ADR-043: moves {@code key}, {@code holder}'s at {@code revision}, to {@code to}'s member lease at its tenure. */
    public CompletableFuture<Answers.Move> move(LeaseKey key, Claimant holder, Fence revision, Claimant to,
            LeaseKey toMember, Fence toMemberTenure) {
        return call(() -> new Request.Move(key, holder.holder(), holder.incarnation(), revision, to.holder(),
                to.incarnation(), toMember, toMemberTenure), requestTimeout, AttachedAndHandoverReplies::decodeMove);
    }

    public CompletableFuture<Answers.Owner> owner(LeaseKey key) {
        return call(() -> new Request.Owner(key), requestTimeout, Replies::decodeOwner);
    }

    /**
     * Sends {@code payload} to whichever process holds {@code key}.
     *
     * @param timeout bounds dagnats' whole call (100 ms to 30 s); this client waits a little longer
     */
    public CompletableFuture<Answers.Forward> forward(LeaseKey key, byte[] payload, Duration timeout) {
        return call(() -> new Request.Forward(key, payload, timeout), timeout.plus(FORWARD_MARGIN),
                Replies::decodeForward);
    }

    /**
     * One page of the held leases whose keys start with the request's prefix (an operator's
     * subject, read-only: a deployment may allow it to holders, as the shard sets need).
     */
    public CompletableFuture<Answers.Listing> list(ListRequest request) {
        return traced(Operation.LIST, request.prefix().value(), Requests.encode(request), requestTimeout,
                Replies::decodeList);
    }

    private <T> CompletableFuture<T> call(Supplier<Request> typed, Duration timeout, Function<byte[], T> answer) {
        Request request;
        try {
            request = typed.get();
        } catch (InvalidLeaseInput invalid) {
            // The same answer dagnats would give, without the round trip.
            return CompletableFuture.failedFuture(new DagnatsException(ErrorKind.INVALID, invalid.getMessage()));
        }
        return traced(request.operation(), request.key().value(), Requests.encode(request), timeout, answer);
    }

    private <T> CompletableFuture<T> traced(Operation operation, String key, byte[] body, Duration timeout,
            Function<byte[], T> answer) {
        Headers headers = new Headers();
        Span span = telemetry.startCall(operation.subject(), key, headers);
        return send(operation, body, timeout, headers, answer).whenComplete((value, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                span.setAttribute(HolderTelemetry.ERROR_TYPE, cause instanceof DagnatsException dagnats
                        ? Kinds.wireName(dagnats.kind()) : cause.getClass().getSimpleName());
            }
            span.end();
        });
    }

    private <T> CompletableFuture<T> send(Operation endpoint, byte[] body, Duration timeout, Headers headers,
            Function<byte[], T> answer) {
        String operation = endpoint.endpointName();
        CompletableFuture<Message> reply;
        try {
            reply = connection.requestWithTimeout(NatsMessage.builder()
                            .subject(endpoint.subject())
                            .headers(headers)
                            .data(body)
                            .build(), timeout)
                    .orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RuntimeException cannotSend) {
            outcomes.unanswered(cannotSend);
            return CompletableFuture.failedFuture(new DagnatsException(ErrorKind.UNAVAILABLE,
                    "could not send " + operation + ": " + cannotSend.getMessage(), cannotSend));
        }
        return reply.handle((message, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                outcomes.unanswered(cause);
                throw new DagnatsException(ErrorKind.UNAVAILABLE, "no answer from dagnats to " + operation
                        + " (" + cause.getClass().getSimpleName() + ")", cause);
            }
            outcomes.answered(); // any reply, an error answer too: dagnats answers
            return answer.apply(message.getData());
        });
    }
}
