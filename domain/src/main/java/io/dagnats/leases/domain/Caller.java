package io.dagnats.leases.domain;

import java.util.Objects;
import java.util.Optional;

/**
 * Who a request comes from, as far as the service knows, and so which keys it may name
 * (ADR-036). With identity mode off every caller is {@link Shared}: one namespace, holder ids
 * are claims, exactly the guide. In identity mode the NATS server vouched for the caller's
 * {@link Principal}: a {@link Member} of an application account acts in its account's
 * namespace only, and an {@link Operator} may list and revoke in any.
 */
public sealed interface Caller {

    /** Identity mode off: the guide's one shared namespace. */
    Caller SHARED = new Shared();

    /** The namespace {@code name} is taken in for this caller's own leases. */
    LeaseKey key(String name);

    /** {@code claimed} bound to this caller: the same holder id and incarnation, under its principal. */
    Claimant claimant(Claimant claimed);

    /** Whether this caller may revoke: with the mode off always (the server's permissions decide), in identity mode only an operator. */
    boolean mayRevoke();

    /**
     * The key a request that may name an account ({@code owner}, {@code revoke}) is about:
     * {@code name} in {@code account}'s namespace, or in the caller's own without one. Empty when
     * this caller may not look there: a member naming another account than its own.
     *
     * @throws InvalidLeaseInput when an account is named with identity mode off, where there is none
     */
    default Optional<LeaseKey> named(String name, Optional<Account> account) {
        return Optional.of(account.map(named -> LeaseKey.in(named, name)).orElseGet(() -> key(name)));
    }

    /** Which stored keys a listing by this caller may show. */
    Namespace listed();

    /** Identity mode off. */
    record Shared() implements Caller {
        @Override
        public LeaseKey key(String name) {
            return new LeaseKey(name);
        }

        @Override
        public Optional<LeaseKey> named(String name, Optional<Account> account) {
            if (account.isPresent()) {
                // As before identity mode existed: the field names a namespace, and there is one.
                throw new InvalidLeaseInput("unknown field \"account\" on a service with identity mode off:"
                        + " there is one shared namespace and no account to name");
            }
            return Optional.of(key(name));
        }

        @Override
        public Claimant claimant(Claimant claimed) {
            return claimed.as(Optional.empty());
        }

        @Override
        public boolean mayRevoke() {
            return true; // the guide's rule: who may revoke is the server's permissions' business
        }

        @Override
        public Namespace listed() {
            return Namespace.SHARED;
        }
    }

    /** A caller the server vouched for: its own leases are in its account's namespace, bound to its principal. */
    sealed interface Vouched extends Caller {

        Principal principal();

        @Override
        default LeaseKey key(String name) {
            return LeaseKey.in(principal().account(), name);
        }

        @Override
        default Claimant claimant(Claimant claimed) {
            return claimed.as(Optional.of(principal()));
        }
    }

    /** A caller of an application account: its own namespace, its own leases. */
    record Member(Principal principal) implements Vouched {
        public Member {
            Objects.requireNonNull(principal, "principal");
        }

        @Override
        public Optional<LeaseKey> named(String name, Optional<Account> account) {
            return account.isEmpty() || account.get().equals(principal.account())
                    ? Optional.of(key(name)) : Optional.empty();
        }

        @Override
        public boolean mayRevoke() {
            return false;
        }

        @Override
        public Namespace listed() {
            return new Namespace.Of(principal.account());
        }
    }

    /**
     * A caller of an operator account: revokes and lists in every namespace. Its own leases, if it
     * takes any, are in its account's namespace like a member's.
     */
    record Operator(Principal principal) implements Vouched {
        public Operator {
            Objects.requireNonNull(principal, "principal");
        }

        @Override
        public boolean mayRevoke() {
            return true;
        }

        @Override
        public Namespace listed() {
            return Namespace.EVERY;
        }
    }
}
