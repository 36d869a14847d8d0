package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.StoreExpiry;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A message as {@code $JS.API.STREAM.MSG.GET} (or a direct get) returns it: its
 * stream sequence, the subject it was stored under, when it was stored, its
 * headers (names in lower case) and its body.
 */
record StoredMessage(long sequence, String subject, Instant time, Map<String, String> headers, byte[] data) {

    /** Header names are case-insensitive on the wire; lookups here use lower case. */
    String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /** A {@code Nats-TTL} as the server takes it: seconds, bare or with a Go duration's units. */
    private static final Pattern TTL = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?|(\\d+)");

    /**
     * The message's own TTL ({@code Nats-TTL}), as the server stores it; empty when it has none, or
     * one this service does not read ({@code never}, fractions): such a message is never judged expired.
     */
    Optional<Duration> ttl() {
        String value = header(Subjects.HEADER_TTL);
        if (value == null) {
            return Optional.empty();
        }
        // Read on every leader read of a held key: dagnats' own form, whole seconds, without a regex.
        Optional<Duration> seconds = wholeSeconds(value);
        if (seconds.isPresent()) {
            return positive(seconds.get());
        }
        Matcher parts = TTL.matcher(value.strip());
        if (!parts.matches() || value.isBlank()) {
            return Optional.empty();
        }
        if (parts.group(4) != null) {
            return positive(Duration.ofSeconds(Long.parseLong(parts.group(4))));
        }
        return positive(Duration.ofHours(number(parts.group(1))).plusMinutes(number(parts.group(2)))
                .plusSeconds(number(parts.group(3))));
    }

    /**
     * How long ago the store should have freed this message by its own TTL, judged on the server's
     * clock only ({@link StoreExpiry}: its stamp and TTL against {@code serverTimeAtLeast}); empty for
     * a live one, one without a TTL this service reads, and when the server's clock is not known.
     */
    Optional<Duration> forgottenFor(Optional<Instant> serverTimeAtLeast) {
        return expiry().flatMap(expiry -> expiry.forgottenFor(serverTimeAtLeast));
    }

    /** When the store itself should free this message: its stamp plus its TTL; empty without a TTL this service reads. */
    Optional<StoreExpiry> expiry() {
        return ttl().map(ttl -> new StoreExpiry(time, ttl));
    }

    private static Optional<Duration> wholeSeconds(String value) {
        int end = value.length() - 1;
        if (end < 1 || end > 18 || value.charAt(end) != 's') {
            return Optional.empty();
        }
        for (int i = 0; i < end; i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                return Optional.empty();
            }
        }
        return Optional.of(Duration.ofSeconds(Long.parseLong(value, 0, end, 10)));
    }

    private static long number(String digits) {
        return digits == null ? 0 : Long.parseLong(digits);
    }

    private static Optional<Duration> positive(Duration ttl) {
        return ttl.isZero() ? Optional.empty() : Optional.of(ttl);
    }

    /** A release or revoke tombstone, or the server's expiry marker: the key is free, not held. */
    boolean freesKey() {
        return header(Subjects.HEADER_MARKER_REASON) != null || header(Subjects.HEADER_KV_OPERATION) != null;
    }
}
