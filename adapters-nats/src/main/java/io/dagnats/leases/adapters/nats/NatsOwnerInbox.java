package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.ForwardToOwner;
import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.JetStreamStatusException;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;

/**
 * Owners' inboxes ({@link LeaseSubjects#inbox}): one core NATS request, fenced
 * with {@link LeaseHeaders#FENCE}, its outcome translated at
 * this edge into what the forward rules need to know.
 */
public final class NatsOwnerInbox implements OwnerInbox {

    private final Connection connection;
    private final LeaseTelemetry telemetry;
    /** Ticks of 5 ms, a twentieth of the shortest forward; a delivery given less time is at most that late. */
    private final RequestDeadlines deadlines = new RequestDeadlines(ForwardToOwner.MIN_TIMEOUT);

    /**
     * @param connection must report no responders ({@link io.nats.client.Options#isReportNoResponders()}):
     *                   without it jnats answers "nobody listens" by cancelling the request, the same
     *                   way its sweeper ends a request that timed out, and the two must never be confused
     * @param telemetry  supplies the trace context each request carries to the owner
     * @throws IllegalArgumentException when the connection does not report no responders
     */
    public NatsOwnerInbox(Connection connection, LeaseTelemetry telemetry) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
        if (!connection.getOptions().isReportNoResponders()) {
            throw new IllegalArgumentException("the owner inbox needs a connection built with reportNoResponders(), "
                    + "or it cannot tell an owner that is not there from one that did not answer in time");
        }
    }

    @Override
    public CompletionStage<Delivery> deliver(LeaseKey key, Claimant owner, Fence fence, byte[] payload, Duration timeout) {
        Headers headers = new Headers();
        headers.put(LeaseHeaders.FENCE, LeaseHeaders.formatFence(fence));
        telemetry.outgoingHeaders().forEach(headers::put);
        CompletableFuture<Message> reply;
        try {
            reply = connection.requestWithTimeout(NatsMessage.builder()
                            .subject(LeaseSubjects.route(key, LeaseSubjects.inbox(owner, key)))
                            .headers(headers)
                            .data(payload)
                            .build(), timeout);
        } catch (RuntimeException closed) {
            return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.INTERNAL,
                    "could not forward to " + owner + ": " + closed.getMessage(), closed));
        }
        // jnats sweeps expired requests only every few seconds: the deadline is held here.
        return deadlines.watch(reply, timeout).handle((message, failure) -> {
            if (failure == null) {
                if (message.isStatusMessage() && message.getStatus().getCode() == 503) {
                    return new Delivery.NoResponders();
                }
                if (message.hasHeaders() && message.getHeaders().getFirst(LeaseHeaders.REJECT) != null) {
                    return new Delivery.Rejected();
                }
                byte[] body = message.getData();
                return new Delivery.Replied(body == null ? new byte[0] : body);
            }
            Throwable cause = Stages.cause(failure);
            if (cause instanceof JetStreamStatusException status && status.getStatus().getCode() == 503) {
                // The server's "no responders" status: proof that nobody received the request.
                return new Delivery.NoResponders();
            }
            if (cause instanceof TimeoutException || cause instanceof CancellationException) {
                // Our deadline, or jnats's request sweeper (a CancellationException) when it runs
                // first, or the connection closing: the owner may have received and processed it.
                return new Delivery.TimedOut();
            }
            throw new LeaseFailure(ErrorKind.INTERNAL, "forwarding to " + owner + " failed: " + cause.getMessage(), cause);
        });
    }
}
