package io.dagnats.leases.domain;

import java.util.Objects;
import java.util.Optional;

/**
 * Who asks for, renews or releases a lease, and whom a lease names: a holder id and, when
 * the caller sent one, its {@link Incarnation}. Two claimants are the same holder only when
 * both parts are equal, so a lease taken with an incarnation is held by another holder for
 * the same holder id without one, and the other way round. Without incarnations on either
 * side this is the guide's rule: the holder id alone.
 *
 * <p>In identity mode (ADR-036) a claimant also carries the {@link Principal} the NATS server
 * vouched for, and a holder id is the same holder only under the same principal: the holder
 * id is bound to the caller. With the mode off there is no principal, on either side.
 */
public record Claimant(HolderId holder, Optional<Incarnation> incarnation, Optional<Principal> principal) {

    public Claimant {
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(incarnation, "incarnation");
        Objects.requireNonNull(principal, "principal");
    }

    /** A claimant of the shared namespace (identity mode off): no principal. */
    public Claimant(HolderId holder, Optional<Incarnation> incarnation) {
        this(holder, incarnation, Optional.empty());
    }

    /** The same holder id and incarnation, as {@code caller} (empty: identity mode off). */
    public Claimant as(Optional<Principal> caller) {
        return new Claimant(holder, incarnation, caller);
    }

    /** The guide's plain holder, with no incarnation. */
    public static Claimant of(HolderId holder) {
        return new Claimant(holder, Optional.empty());
    }

    public static Claimant of(HolderId holder, Incarnation incarnation) {
        return new Claimant(holder, Optional.of(incarnation));
    }

    /** {@code holder}, or {@code holder (incarnation i)}: for messages; the principal is left out, as replies leave it. */
    @Override
    public String toString() {
        return incarnation.map(value -> holder + " (incarnation " + value + ")").orElse(holder.value());
    }

    /**
     * @throws IllegalArgumentException unless {@code key}'s namespace is this claimant's account:
     *                                  both empty (mode off), or the same account
     */
    void requireInNamespaceOf(LeaseKey key) {
        if (!key.account().equals(principal.map(Principal::account))) {
            throw new IllegalArgumentException("a claimant " + principal.map(Principal::toString).orElse("without a principal")
                    + " cannot hold key " + key + ": a key's namespace is its holder's account");
        }
    }
}
