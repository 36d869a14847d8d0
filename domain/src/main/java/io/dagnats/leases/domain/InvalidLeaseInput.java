package io.dagnats.leases.domain;

/**
 * A value that breaks one of the lease input rules. The message is a sentence a
 * caller can act on; it never carries a stack trace onto the wire.
 */
public final class InvalidLeaseInput extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidLeaseInput(String sentence) {
        super(sentence);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        // Bad input is an expected outcome, not a bug: no stack to capture.
        return this;
    }
}
