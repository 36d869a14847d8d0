package io.dagnats.leases.holder.internal;


/**
 * Hears what each call of a {@code LeaseClient} came to, as far as reaching dagnats goes:
 * an answer (any reply, an error answer too), or none. Called on whichever thread completes
 * the call; it must be quick and must not throw.
 */
public interface CallOutcomes {

    /** For a client whose outcomes nobody watches. */
    CallOutcomes IGNORED = new CallOutcomes() {
        @Override
        public void answered() {
        }

        @Override
        public void unanswered(Throwable cause) {
        }
    };

    /** A reply came back from dagnats. */
    void answered();

    /** No reply came: the request could not be sent, found no responders, or timed out. */
    void unanswered(Throwable cause);
}
