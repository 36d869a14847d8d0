package io.dagnats.leases.domain;

/** The one syntax keys and holder ids share: exactly one NATS subject token. */
final class Token {
    static final int MAX_LENGTH = 128;

    private Token() {
    }

    static String require(String field, String value) {
        return require(field, value, 1);
    }

    /** @param minLength 0 or 1: whether an empty value is one */
    static String require(String field, String value, int minLength) {
        return require(field, value, minLength, MAX_LENGTH);
    }

    /** @param maxLength at most {@link #MAX_LENGTH}: a value of its own kind may be shorter still */
    static String require(String field, String value, int minLength, int maxLength) {
        if (value == null) {
            throw new InvalidLeaseInput(field + " is required");
        }
        int length = value.length();
        if (length < minLength || length > maxLength) {
            throw new InvalidLeaseInput(field + " must be " + minLength + " to " + maxLength + " characters long");
        }
        for (int i = 0; i < length; i++) {
            if (!allowed(value.charAt(i))) {
                throw new InvalidLeaseInput(field + " may hold only A-Z, a-z, 0-9, '_' and '-'");
            }
        }
        return value;
    }

    private static boolean allowed(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    }
}
