package io.dagnats.leases.application;

import io.dagnats.leases.domain.Decision;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseWrite;

/** How one call decides from a state of its key, and how it decides after a write of its lost a race. */
@FunctionalInterface
interface CallRules<O> {

    Decision<O> decide(KeyState state);

    /** The rules for the read after {@code lost} failed its compare-and-set: the same unless a call narrows them. */
    default CallRules<O> afterLosing(LeaseWrite lost) {
        return this;
    }
}
