package io.dagnats.leases.application;

/** The {@code kind} of a failed call, as it appears on the wire. */
public enum ErrorKind {
    /** The request breaks an input rule: fix it, do not retry it. */
    INVALID("invalid"),
    /** The caller does not own the lease (any more): stop acting as owner. */
    LOST("lost"),
    /** The server cannot serve leases (no per-message TTL, or no JetStream). */
    UNSUPPORTED("unsupported"),
    /** JetStream did not answer in time; nothing was changed, or the caller cannot know. */
    UNAVAILABLE("unavailable"),
    /** A corrupt lease record, or dagnats stopping mid-call. */
    INTERNAL("internal");

    private final String wireName;

    ErrorKind(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
