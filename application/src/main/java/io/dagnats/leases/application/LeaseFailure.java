package io.dagnats.leases.application;

import io.dagnats.leases.domain.ErrorKind;
import java.util.Objects;

/**
 * An infrastructure failure that ends a call, carrying the wire {@link ErrorKind}
 * it maps to. Normal answers (held by another holder, lost) are values, never this.
 */
public final class LeaseFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorKind kind;

    public LeaseFailure(ErrorKind kind, String sentence) {
        super(sentence);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public LeaseFailure(ErrorKind kind, String sentence, Throwable cause) {
        super(sentence, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public ErrorKind kind() {
        return kind;
    }
}
