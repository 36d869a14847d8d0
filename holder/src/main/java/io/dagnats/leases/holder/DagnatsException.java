package io.dagnats.leases.holder;

/**
 * A call that dagnats could not answer normally: {@code invalid}, {@code unsupported},
 * {@code unavailable}, {@code internal}, or no answer at all ({@code kind} is then
 * {@code "unavailable"} too). Normal answers (held by another, lost, forward
 * outcomes) are values, never this.
 */
public final class DagnatsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String kind;

    public DagnatsException(String kind, String message) {
        super(kind + ": " + message);
        this.kind = kind;
    }

    public DagnatsException(String kind, String message, Throwable cause) {
        super(kind + ": " + message, cause);
        this.kind = kind;
    }

    /** The wire kind: invalid, unsupported, unavailable, internal. */
    public String kind() {
        return kind;
    }

    /** Whether retrying the same call later may succeed. */
    public boolean retryable() {
        return "unavailable".equals(kind) || "internal".equals(kind);
    }
}
