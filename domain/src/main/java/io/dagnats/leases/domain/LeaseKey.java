package io.dagnats.leases.domain;

import java.util.Objects;
import java.util.Optional;

/**
 * The name of a lease. A key that exists is valid: one subject token of
 * {@code [A-Za-z0-9_-]}, 1 to 128 characters, so it can never add a wildcard or
 * an extra token to a subject.
 *
 * <p>In identity mode (ADR-036) a key also names the {@link Account} whose namespace it is
 * in: account A's {@code k} and account B's {@code k} are two keys, two leases. {@link #value()}
 * is the name the caller sends and sees, without the account.
 */
public record LeaseKey(String value, Optional<Account> account) {

    public LeaseKey {
        Token.require("key", value);
        Objects.requireNonNull(account, "account");
    }

    /** A key of the one shared namespace: identity mode off, the guide's key. */
    public LeaseKey(String value) {
        this(value, Optional.empty());
    }

    /** {@code name} in {@code account}'s namespace. */
    public static LeaseKey in(Account account, String name) {
        return new LeaseKey(name, Optional.of(account));
    }

    /** The same name in {@code namespace} (empty: the shared one). */
    public LeaseKey withAccount(Optional<Account> namespace) {
        return new LeaseKey(value, namespace);
    }

    /** The name alone, or {@code account:name} for a namespaced key: for messages and logs. */
    @Override
    public String toString() {
        return account.map(owner -> owner + ":" + value).orElse(value);
    }
}
