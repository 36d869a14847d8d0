package io.dagnats.leases.domain;

/**
 * The name of a lease. A key that exists is valid: one subject token of
 * {@code [A-Za-z0-9_-]}, 1 to 128 characters, so it can never add a wildcard or
 * an extra token to a subject.
 */
public record LeaseKey(String value) {
    public LeaseKey {
        Token.require("key", value);
    }

    @Override
    public String toString() {
        return value;
    }
}
