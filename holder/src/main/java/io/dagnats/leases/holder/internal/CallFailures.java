package io.dagnats.leases.holder.internal;

import io.dagnats.leases.protocol.DagnatsException;
import java.util.Optional;
import java.util.concurrent.CompletionException;

/** How the keeper and the follower read a call that came back without an answer. */
public final class CallFailures {

    private CallFailures() {
    }

    /** The sentence of a call's failure that retrying will not cure; empty when a retry may (no answer, unavailable). */
    public static Optional<String> finalError(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof DagnatsException dagnats && !dagnats.retryable()
                ? Optional.of(cause.getMessage()) : Optional.empty();
    }
}
