package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.domain.ErrorKind;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** JetStream API requests under one deadline: each one's answer, or {@code unavailable}. */
final class JetStreamRequest {

    private final Connection connection;
    private final Duration timeout;
    private final RequestDeadlines deadlines;

    JetStreamRequest(Connection connection, Duration timeout) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.deadlines = new RequestDeadlines(timeout);
    }

    /**
     * @param headers the request's headers, or null for none
     * @param what    names the request in a sentence: "read k", "write k"
     */
    CompletableFuture<Message> send(String subject, Headers headers, byte[] body, String what) {
        CompletableFuture<Message> reply;
        try {
            reply = connection.requestWithTimeout(
                    NatsMessage.builder().subject(subject).headers(headers).data(body).build(), timeout);
        } catch (RuntimeException closed) {
            return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.UNAVAILABLE,
                    "could not " + what + ": " + closed.getMessage(), closed));
        }
        // jnats sweeps expired requests only every few seconds: the deadline is held here.
        // No responders is no proof the bucket is gone: a cluster without a stream leader answers
        // writes the same way. The provisioner's next look at the bucket tells the two apart.
        // One stage: the answer goes on on the thread that completed the request.
        return deadlines.watch(reply).handle((answer, failure) -> {
            if (failure == null) {
                return answer;
            }
            throw new CompletionException(new LeaseFailure(
                    ErrorKind.UNAVAILABLE, "JetStream did not answer the " + what + " in time", Stages.cause(failure)));
        });
    }
}
