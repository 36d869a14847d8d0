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
    INTERNAL("internal"),
    /** forward: nobody holds the key. */
    NO_OWNER("no_owner"),
    /** forward: no subscriber on the owner's inbox, and no new owner to try. */
    OWNER_UNAVAILABLE("owner_unavailable"),
    /** forward: the owner rejected the fence as stale, and no new owner to try. */
    OWNER_REJECTED("owner_rejected"),
    /** forward: the owner did not answer in time; it may have processed the request. */
    OWNER_TIMEOUT("owner_timeout"),
    /** forward: the owner's reply, base64 in the reply JSON, exceeds the server's max_payload. */
    REPLY_TOO_LARGE("reply_too_large");

    private final String wireName;

    ErrorKind(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
