package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.LeaseKey;

/**
 * The key a holder presents its highest fence on when the store went back: the key's name with
 * {@value #SUFFIX} (cut to fit a key's 128 characters), in the same namespace. Nobody acquires
 * it, so it reads free, and dagnats takes a renew of a free key above the stream's last sequence
 * as proof of the rollback (ADR-039), while the real key stays held by this process's own older
 * record: a waiter cannot take it at a repeated fence meanwhile. A probe somebody holds only delays
 * the proof.
 */
final class WentBackProbe {

    static final String SUFFIX = "-went-back";
    private static final int MAX_KEY = 128;

    private WentBackProbe() {
    }

    static LeaseKey of(LeaseKey key) {
        String name = key.value();
        String stem = name.length() + SUFFIX.length() > MAX_KEY ? name.substring(0, MAX_KEY - SUFFIX.length()) : name;
        return new LeaseKey(stem + SUFFIX, key.account());
    }
}
