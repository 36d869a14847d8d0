package io.dagnats.leases.domain;

/**
 * What the rules decide from one read of a key: either the answer is already
 * known, or one compare-and-set write must succeed first.
 *
 * @param <O> the outcome type of the operation
 */
public sealed interface Decision<O> {

    /** Answer now; nothing is written. */
    record Answer<O>(O outcome) implements Decision<O> {
    }

    /** Apply {@code write}; if its expected sequence no longer holds, read again and decide again. */
    record Apply<O>(LeaseWrite write) implements Decision<O> {
    }
}
