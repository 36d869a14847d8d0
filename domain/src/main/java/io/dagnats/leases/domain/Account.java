package io.dagnats.leases.domain;

/**
 * A NATS account, as the server names the caller's in identity mode (ADR-036): the
 * namespace of its keys and the first half of a {@link Principal}. One subject token of
 * {@code [A-Za-z0-9_-]}, 1 to 64 characters: the names of a configuration file's accounts,
 * or an account's 56-character public key in operator mode.
 */
public record Account(String value) {

    static final int MAX_LENGTH = 64;

    public Account {
        Token.require("account", value, 1, MAX_LENGTH);
    }

    @Override
    public String toString() {
        return value;
    }
}
