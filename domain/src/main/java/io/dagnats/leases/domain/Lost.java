package io.dagnats.leases.domain;

/**
 * The caller no longer owns the lease (or never did) and must stop acting as
 * owner now. Retrying the same call cannot change that.
 */
public record Lost(LeaseKey key, Reason reason, String detail) implements Renewal, Release, Handover {

    public enum Reason {
        /** Never acquired, released, or expired by the server's TTL. */
        NOT_HELD,
        /** Another holder owns the key now. */
        HELD_BY_OTHER,
        /** The presented revision is not the current fence. */
        STALE_FENCE
    }

    /** A sentence for the caller. */
    public String sentence() {
        return "lease " + key + " is lost: " + detail;
    }
}
