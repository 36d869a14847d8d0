package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.domain.ErrorKind;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** One JetStream API request under this adapter's deadline: its answer, or {@code unavailable}. */
final class JetStreamRequest {

    private JetStreamRequest() {
    }

    /**
     * @param headers the request's headers, or null for none
     * @param what    names the request in a sentence: "read k", "write k"
     */
    static CompletableFuture<Message> send(
            Connection connection, Duration timeout, String subject, Headers headers, byte[] body, String what) {
        CompletableFuture<Message> reply;
        try {
            reply = connection.requestWithTimeout(
                            NatsMessage.builder().subject(subject).headers(headers).data(body).build(), timeout)
                    // jnats sweeps expired requests only every few seconds: hold the deadline here.
                    .orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RuntimeException closed) {
            return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.UNAVAILABLE,
                    "could not " + what + ": " + closed.getMessage(), closed));
        }
        // No responders is no proof the bucket is gone: a cluster without a stream leader answers
        // writes the same way. The provisioner's next look at the bucket tells the two apart.
        return reply.exceptionallyCompose(failure -> CompletableFuture.failedFuture(new LeaseFailure(
                ErrorKind.UNAVAILABLE, "JetStream did not answer the " + what + " in time", Stages.cause(failure))));
    }
}
