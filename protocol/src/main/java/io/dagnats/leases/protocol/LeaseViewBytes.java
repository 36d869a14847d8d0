package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.Lease;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lease view, the reply of nearly every request, written straight into a
 * byte array: byte for byte what the Jackson path of {@link Replies} writes
 * (compact, fields in the same order), without a generator, a stream and two
 * date formatters per reply. Only for the plain case: a key and holder of
 * printable ASCII that need no escaping, a revision below 2^63 and instants
 * {@link Timestamps} writes by hand, in the shared namespace (identity mode off); anything
 * else is left to Jackson.
 */
final class LeaseViewBytes {

    private static final byte[] GRANTED_TRUE = ascii("{\"" + Fields.GRANTED + "\":true,");
    private static final byte[] GRANTED_FALSE = ascii("{\"" + Fields.GRANTED + "\":false,");
    private static final byte[] OPEN = ascii("{");
    private static final byte[] HELD_KEY = ascii("\"" + Fields.HELD + "\":true,\"" + Fields.KEY + "\":\"");
    private static final byte[] HOLDER = ascii("\",\"" + Fields.HOLDER + "\":\"");
    private static final byte[] INCARNATION = ascii("\",\"" + Fields.INCARNATION + "\":\"");
    private static final byte[] REVISION = ascii("\",\"" + Fields.REVISION + "\":");
    private static final byte[] TENURE = ascii(",\"" + Fields.TENURE + "\":");
    private static final byte[] ACQUIRED_AT = ascii(",\"" + Fields.ACQUIRED_AT + "\":\"");
    private static final byte[] EXPIRES_AT = ascii("\",\"" + Fields.EXPIRES_AT + "\":\"");
    private static final byte[] TTL_MS = ascii("\",\"" + Fields.TTL_MS + "\":");
    /** Everything but the strings: the fixed parts, two timestamps, three longs. */
    private static final int FIXED = 260;

    private LeaseViewBytes() {
    }

    /**
     * @param granted true or false for an acquire or renew answer; null for an owner answer (no {@code granted})
     * @return the reply body, or null when the lease is not the plain case
     */
    static byte[] write(Boolean granted, Lease lease) {
        String key = lease.key().value();
        String holder = lease.holder().value();
        String incarnation = lease.incarnation().map(Object::toString).orElse("");
        long revision = lease.revision().revision();
        long tenure = lease.tenure().revision();
        if (revision < 0 || tenure < 0 || !plain(key) || !plain(holder) || !plain(incarnation)
                || lease.key().account().isPresent() || lease.isAttached()) {
            return null;
        }
        byte[] out = new byte[FIXED + key.length() + holder.length() + incarnation.length()];
        int at = put(out, 0, granted == null ? OPEN : granted ? GRANTED_TRUE : GRANTED_FALSE);
        at = put(out, at, HELD_KEY);
        at = putAscii(out, at, key);
        at = put(out, at, HOLDER);
        at = putAscii(out, at, holder);
        if (!incarnation.isEmpty()) {
            at = put(out, at, INCARNATION);
            at = putAscii(out, at, incarnation);
        }
        at = put(out, at, REVISION);
        at = putLong(out, at, revision);
        at = put(out, at, TENURE);
        at = putLong(out, at, tenure);
        at = put(out, at, ACQUIRED_AT);
        at = Timestamps.write(lease.acquiredAt(), out, at);
        if (at < 0) {
            return null;
        }
        at = put(out, at, EXPIRES_AT);
        at = Timestamps.write(lease.expiresAt(), out, at);
        if (at < 0) {
            return null;
        }
        at = put(out, at, TTL_MS);
        at = putLong(out, at, lease.ttl().millis());
        out[at++] = '}';
        return Arrays.copyOf(out, at);
    }

    /** Printable ASCII with nothing JSON escapes. */
    private static boolean plain(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private static int put(byte[] out, int at, byte[] part) {
        System.arraycopy(part, 0, out, at, part.length);
        return at + part.length;
    }

    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): the ASCII copy without a charset encoder
    private static int putAscii(byte[] out, int at, String value) {
        value.getBytes(0, value.length(), out, at);
        return at + value.length();
    }

    private static int putLong(byte[] out, int at, long value) {
        if (value < 0) {
            out[at++] = '-';
            value = -value; // ttl and revision are never Long.MIN_VALUE here (checked or validated)
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        for (int i = at + digits - 1; i >= at; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        return at + digits;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
