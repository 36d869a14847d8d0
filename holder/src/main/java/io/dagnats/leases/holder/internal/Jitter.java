package io.dagnats.leases.holder.internal;

import java.util.SplittableRandom;

/** The randomness that spreads waiters apart, injected so that tests can fix it. */
@FunctionalInterface
public interface Jitter {

    /** A number of milliseconds from 0 to {@code bound} - 1. */
    int millis(int bound);

    /** A fresh generator per keeper: the waiters of one key draw apart. */
    static Jitter random() {
        SplittableRandom random = new SplittableRandom();
        return random::nextInt;
    }
}
