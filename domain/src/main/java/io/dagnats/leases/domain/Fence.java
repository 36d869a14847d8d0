package io.dagnats.leases.domain;

/**
 * A fencing token: the revision of one write to a lease key. Revisions only go
 * up, and a revision names exactly one immutable write, so a downstream store
 * that refuses anything below the highest fence it has seen stops a holder that
 * woke up believing it still owns the lease.
 */
public record Fence(long revision) implements Comparable<Fence> {
    public Fence {
        if (revision < 1) {
            throw new InvalidLeaseInput("revision must be 1 or more");
        }
    }

    public boolean isBelow(Fence other) {
        return revision < other.revision;
    }

    @Override
    public int compareTo(Fence other) {
        return Long.compare(revision, other.revision);
    }

    @Override
    public String toString() {
        return Long.toString(revision);
    }
}
