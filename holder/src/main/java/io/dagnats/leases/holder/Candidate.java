package io.dagnats.leases.holder;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import java.time.Duration;
import java.util.Objects;

/**
 * One process that keeps a key with candidacy on, as it answered on
 * {@code dagnats.lease.candidates.<key>}: who it is, what makes it preferable, and how long it
 * has wanted the key without a break (on its own clock, so a process that restarted counts from
 * zero again). Candidates are asked live and never stored: one that stopped answers no more.
 *
 * @param owner whether it answered as the key's owner ({@code "state":"owner"}) rather than a waiter
 */
public record Candidate(HolderId holder, Incarnation incarnation, int priority, String version, Duration waited,
        boolean owner) {

    public Candidate {
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(incarnation, "incarnation");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(waited, "waited");
        if (waited.isNegative()) {
            throw new IllegalArgumentException("a candidate cannot have waited a negative time: " + waited);
        }
    }

    /** Whether it waits for the key, and so may be handed it. */
    public boolean waiting() {
        return !owner;
    }
}
