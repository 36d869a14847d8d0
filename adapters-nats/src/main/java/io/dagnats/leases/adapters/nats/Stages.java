package io.dagnats.leases.adapters.nats;

import java.util.concurrent.CompletionException;

/** Small helpers for the asynchronous stages of this adapter. */
final class Stages {

    private Stages() {
    }

    /** What actually failed: a dependent stage wraps its cause in a {@link CompletionException}. */
    static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
