package io.dagnats.leases.domain;

/** The answer to a renew. */
public sealed interface Renewal permits Renewal.Renewed, Lost {

    /** The lease now runs {@code ttl} from this write, under a new fence in the same tenure. */
    record Renewed(Lease lease) implements Renewal {
    }
}
