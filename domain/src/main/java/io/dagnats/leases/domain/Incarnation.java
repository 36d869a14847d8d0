package io.dagnats.leases.domain;

/**
 * One run of a holder: a value the holder picks once per process (the holder library a
 * random one per {@code LeaseHolder}) and sends with acquire, renew and release. Two
 * processes that share a holder id (a StatefulSet pod name, a NATS user name) are two
 * holders to dagnats when their incarnations differ, so "is this write mine?" is a
 * comparison, never an inference. Optional on the wire: a caller that sends none is
 * the guide's plain holder. Same syntax as {@link HolderId}, at most 64 characters.
 */
public record Incarnation(String value) {

    static final int MAX_LENGTH = 64;

    public Incarnation {
        Token.require("incarnation", value, 1, MAX_LENGTH);
    }

    @Override
    public String toString() {
        return value;
    }
}
