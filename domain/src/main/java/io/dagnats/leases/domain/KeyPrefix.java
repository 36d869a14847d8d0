package io.dagnats.leases.domain;

import java.util.Objects;

/**
 * The start of the keys a listing asks for: the key syntax, but 0 to 128
 * characters; the empty prefix matches every key of its {@link Namespace}.
 */
public record KeyPrefix(String value, Namespace namespace) {

    /** Every key (identity mode off). */
    public static final KeyPrefix ALL = new KeyPrefix("");
    /** Every key of every namespace, identity mode on or off: what the lease gauges count. */
    public static final KeyPrefix EVERY_NAMESPACE = new KeyPrefix("", Namespace.ANY);

    public KeyPrefix {
        Token.require("prefix", value, 0);
        Objects.requireNonNull(namespace, "namespace");
    }

    /** A prefix of the shared namespace (identity mode off). */
    public KeyPrefix(String value) {
        this(value, Namespace.SHARED);
    }

    /** The same prefix in {@code within}. */
    public KeyPrefix in(Namespace within) {
        return new KeyPrefix(value, within);
    }

    public boolean matches(LeaseKey key) {
        return namespace.contains(key) && key.value().startsWith(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
