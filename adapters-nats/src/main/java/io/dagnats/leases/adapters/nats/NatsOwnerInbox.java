package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.ErrorKind;
import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Owners' inboxes on {@code dagnats.lease.inbox.<holder>.<key>}: one core NATS
 * request, fenced with {@code Dagnats-Lease-Fence}, its outcome translated at
 * this edge into what the forward rules need to know.
 */
public final class NatsOwnerInbox implements OwnerInbox {

    private final Connection connection;
    private final LeaseTelemetry telemetry;

    /** @param telemetry supplies the trace context each request carries to the owner */
    public NatsOwnerInbox(Connection connection, LeaseTelemetry telemetry) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
    }

    @Override
    public CompletionStage<Delivery> deliver(LeaseKey key, HolderId owner, Fence fence, byte[] payload, Duration timeout) {
        Headers headers = new Headers();
        headers.put(Subjects.HEADER_FENCE, Long.toString(fence.revision()));
        telemetry.outgoingHeaders().forEach(headers::put);
        CompletableFuture<Message> reply;
        try {
            reply = connection.requestWithTimeout(NatsMessage.builder()
                            .subject(Subjects.inbox(owner, key))
                            .headers(headers)
                            .data(payload)
                            .build(), timeout)
                    // jnats sweeps expired requests only every few seconds: hold the deadline here.
                    .orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RuntimeException closed) {
            return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.INTERNAL,
                    "could not forward to " + owner + ": " + closed.getMessage(), closed));
        }
        return reply.handle((message, failure) -> {
            if (failure == null) {
                if (message.isStatusMessage() && message.getStatus().getCode() == 503) {
                    return new Delivery.NoResponders();
                }
                if (message.hasHeaders() && message.getHeaders().getFirst(Subjects.HEADER_REJECT) != null) {
                    return new Delivery.Rejected();
                }
                byte[] body = message.getData();
                return new Delivery.Replied(body == null ? new byte[0] : body);
            }
            Throwable cause = Stages.cause(failure);
            if (cause instanceof JetStreamStatusException status && status.getStatus().getCode() == 503) {
                return new Delivery.NoResponders();
            }
            if (cause instanceof CancellationException && connection.getStatus() == Connection.Status.CONNECTED) {
                // jnats cancels a request the server answered with "no responders" when not told to report it.
                return new Delivery.NoResponders();
            }
            if (cause instanceof TimeoutException || cause instanceof CancellationException) {
                return new Delivery.TimedOut();
            }
            throw new LeaseFailure(ErrorKind.INTERNAL, "forwarding to " + owner + " failed: " + cause.getMessage(), cause);
        });
    }
}
