package io.dagnats.leases.domain;

/**
 * Why a call ended without a normal answer: the {@code kind} of an error reply.
 * Exceptions carry the kind they map to; how each kind is spelled on the wire is
 * the protocol's business ({@code io.dagnats.leases.protocol.Kinds}), so these
 * constants may be renamed without changing the wire.
 */
public enum ErrorKind {
    /** The request breaks an input rule: fix it, do not retry it. */
    INVALID(false),
    /**
     * Identity mode (ADR-036): the NATS server did not vouch for the caller, or the caller may
     * not do this (another account's namespace, an operator's call); nothing was changed.
     */
    FORBIDDEN(false),
    /** The caller does not own the lease (any more): stop acting as owner. */
    LOST(false),
    /** The server cannot serve leases (no per-message TTL, or no JetStream). */
    UNSUPPORTED(false),
    /** JetStream did not answer in time; nothing was changed, or the caller cannot know. */
    UNAVAILABLE(true),
    /** A corrupt lease record, or dagnats stopping mid-call. */
    INTERNAL(true),
    /** forward: nobody holds the key. */
    NO_OWNER(true),
    /** forward: no subscriber on the owner's inbox, and no new owner to try. */
    OWNER_UNAVAILABLE(true),
    /** forward: the owner rejected the fence as stale, and no new owner to try. */
    OWNER_REJECTED(true),
    /** forward: the owner did not answer in time; it may have processed the request. */
    OWNER_TIMEOUT(false),
    /** forward: the owner's reply, base64 in the reply JSON, exceeds the server's max_payload. */
    REPLY_TOO_LARGE(false),
    /**
     * handover: the named successor did not say, right now, that it waits for the key under the
     * incarnation named (nobody listens, no answer in time, a refusal, another incarnation or state);
     * nothing was written and the lease is still the caller's at the revision it sent.
     */
    NO_SUCCESSOR(true);

    private final boolean retryable;

    ErrorKind(boolean retryable) {
        this.retryable = retryable;
    }

    /**
     * Whether the same call made again later may succeed. {@link #OWNER_TIMEOUT} is
     * false: the owner may have processed the request, so only the caller can
     * know whether repeating it is safe.
     */
    public boolean retryable() {
        return retryable;
    }
}
