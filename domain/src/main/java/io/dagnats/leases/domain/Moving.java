package io.dagnats.leases.domain;

/** The answer to a move of an attached key (ADR-043). */
public sealed interface Moving permits Moving.Moved, Moving.NoSuccessor, Lost {

    /** The key is attached to the successor's member tenure at a new fence. */
    record Moved(Lease lease) implements Moving {
    }

    /** The successor's member lease is not live in the tenure named: nothing was written. */
    record NoSuccessor(LeaseKey key, LeaseKey member, String detail) implements Moving {
        public String sentence() {
            return "lease " + key + " was not moved: " + detail;
        }
    }
}
