package io.dagnats.leases.domain;

/**
 * The start of the keys a listing asks for: the key syntax, but 0 to 128
 * characters; the empty prefix matches every key.
 */
public record KeyPrefix(String value) {

    /** Every key. */
    public static final KeyPrefix ALL = new KeyPrefix("");

    public KeyPrefix {
        Token.require("prefix", value, 0);
    }

    public boolean matches(LeaseKey key) {
        return key.value().startsWith(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
