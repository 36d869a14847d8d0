package io.dagnats.leases.domain;

/** The answer to an attach (ADR-043): granted or held by another, like an acquire; or lost when the member is not held. */
public sealed interface Attaching permits Attaching.Granted, Attaching.HeldByOther, Lost {

    /** The key is attached to the caller's member tenure: newly, or already (same revision, nothing written). */
    record Granted(Lease lease) implements Attaching {
    }

    /** Another holder has the key (a plain lease, or attached to a live member); {@code lease} names it. */
    record HeldByOther(Lease lease) implements Attaching {
    }
}
