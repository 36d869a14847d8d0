package io.dagnats.leases.cli;

/**
 * A command that could not do its job for a reason the operator can act on:
 * one sentence, printed as one line on stderr, no stack trace.
 */
final class CliFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Exit code of an operational failure: NATS unreachable, no dagnats answered, permission denied. */
    static final int OPERATIONAL = 1;
    /** Exit code of a mistake in how the CLI was called or configured. */
    static final int USAGE = 2;

    private final int exitCode;

    CliFailure(String sentence) {
        this(sentence, OPERATIONAL);
    }

    CliFailure(String sentence, int exitCode) {
        super(sentence, null, false, false);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
