package io.dagnats.leases.domain;

/**
 * A fencing token: the revision of one write to a lease key. Revisions only go
 * up, and a revision names exactly one immutable write, so a downstream store
 * that refuses anything below the highest fence it has seen stops a holder that
 * woke up believing it still owns the lease.
 *
 * <p>A fence is an unsigned 64-bit integer of at least 1, as the wire defines it.
 * The revisions dagnats hands out are stream sequences, far below 2^63; a fence
 * presented to an owner may be anywhere in the unsigned range, so one above
 * 2^63-1 is held in {@code revision} as a negative {@code long} and every
 * comparison here is unsigned. Code that reads {@link #revision()} as a number
 * must do the same ({@link Long#compareUnsigned}, {@link Long#toUnsignedString}).
 *
 * @param revision the 64 bits of the fence, read as unsigned
 */
public record Fence(long revision) implements Comparable<Fence> {
    public Fence {
        if (revision == 0) {
            throw new InvalidLeaseInput("revision must be 1 or more");
        }
    }

    public boolean isBelow(Fence other) {
        return compareTo(other) < 0;
    }

    @Override
    public int compareTo(Fence other) {
        return Long.compareUnsigned(revision, other.revision);
    }

    /** The unsigned decimal form, as it travels in the fence header of a forwarded request. */
    @Override
    public String toString() {
        return Long.toUnsignedString(revision);
    }
}
