package io.dagnats.leases.domain;

/**
 * The caller no longer owns the lease (or never did) and must stop acting as
 * owner now. Retrying the same call cannot change that.
 */
public record Lost(LeaseKey key, Reason reason, String detail) implements Renewal, Release, Handover, Attaching,
        Moving {

    public enum Reason {
        /** Never acquired, released, or expired by the server's TTL. */
        NOT_HELD,
        /** Another holder owns the key now. */
        HELD_BY_OTHER,
        /** The presented revision is not the current fence. */
        STALE_FENCE,
        /**
         * A renew of a key attached to a member lease (ADR-043): it has no TTL to extend; renewing
         * the member keeps it. Answered {@code lost} so a caller that took it for a plain lease stops.
         */
        ATTACHED,
        /** attach or move named a member lease the caller does not hold in the tenure it named. */
        MEMBER_NOT_HELD
    }

    /** A sentence for the caller. */
    public String sentence() {
        return "lease " + key + " is lost: " + detail;
    }
}
