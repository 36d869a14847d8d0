package io.dagnats.leases.domain;

/** The answer to an acquire. Neither case is an error: "held by someone else" is a normal answer. */
public sealed interface Acquisition {

    Lease lease();

    /** The caller holds the key after the call: newly granted, or already its own. */
    record Granted(Lease lease) implements Acquisition {
    }

    /** Another holder has the key; {@code lease} names it. */
    record HeldByOther(Lease lease) implements Acquisition {
    }
}
