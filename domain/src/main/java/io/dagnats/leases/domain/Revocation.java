package io.dagnats.leases.domain;

/** The answer to an operator's revoke. */
public sealed interface Revocation {

    LeaseKey key();

    /**
     * The key is free: {@code holder}'s lease under {@code revokedRevision} ended by a
     * tombstone whose revision is {@code revision}.
     */
    record Revoked(LeaseKey key, HolderId holder, Fence revision, Fence revokedRevision) implements Revocation {
    }

    /** Nobody held the key: nothing was written. */
    record Free(LeaseKey key) implements Revocation {
    }

    /** The revoke named a revision that is not the current fence: nothing was written; {@code lease} is current. */
    record NotCurrent(Lease lease) implements Revocation {
        @Override
        public LeaseKey key() {
            return lease.key();
        }
    }
}
