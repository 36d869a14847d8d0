package io.dagnats.leases.domain;

import java.util.Objects;
import java.util.Optional;

/**
 * Who asks for, renews or releases a lease, and whom a lease names: a holder id and, when
 * the caller sent one, its {@link Incarnation}. Two claimants are the same holder only when
 * both parts are equal, so a lease taken with an incarnation is held by another holder for
 * the same holder id without one, and the other way round. Without incarnations on either
 * side this is the guide's rule: the holder id alone.
 */
public record Claimant(HolderId holder, Optional<Incarnation> incarnation) {

    public Claimant {
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(incarnation, "incarnation");
    }

    /** The guide's plain holder, with no incarnation. */
    public static Claimant of(HolderId holder) {
        return new Claimant(holder, Optional.empty());
    }

    public static Claimant of(HolderId holder, Incarnation incarnation) {
        return new Claimant(holder, Optional.of(incarnation));
    }

    /** {@code holder}, or {@code holder (incarnation i)}: for messages. */
    @Override
    public String toString() {
        return incarnation.map(value -> holder + " (incarnation " + value + ")").orElse(holder.value());
    }
}
