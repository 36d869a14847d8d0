package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.ErrorKind;
import java.util.Objects;

/**
 * A reply that is not a normal answer of its operation: an error reply
 * ({@code invalid}, {@code unsupported}, {@code unavailable}, {@code internal}, or
 * a kind the operation never answers with as a value), or a reply that breaks
 * the contract, which is {@link ErrorKind#INTERNAL}.
 */
public final class ErrorReply extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorKind kind;

    public ErrorReply(ErrorKind kind, String sentence) {
        super(sentence);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public ErrorKind kind() {
        return kind;
    }
}
