package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.ErrorKind;
import java.util.Objects;

/**
 * A call that dagnats could not answer normally, as a client sees it: an error
 * reply that is no answer of its operation ({@link ErrorKind#INVALID},
 * {@link ErrorKind#UNSUPPORTED}, {@link ErrorKind#UNAVAILABLE}, {@link ErrorKind#INTERNAL}),
 * a reply that breaks the contract ({@link ErrorKind#INTERNAL}), or no answer at
 * all ({@link ErrorKind#UNAVAILABLE}). Normal answers (held by another, lost,
 * forward outcomes) are values ({@link Answers}), never this.
 */
public final class DagnatsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorKind kind;

    public DagnatsException(ErrorKind kind, String message) {
        super(Kinds.wireName(kind) + ": " + message);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public DagnatsException(ErrorKind kind, String message, Throwable cause) {
        super(Kinds.wireName(kind) + ": " + message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public ErrorKind kind() {
        return kind;
    }

    /** Whether retrying the same call later may succeed. */
    public boolean retryable() {
        return kind.retryable();
    }
}
