package io.dagnats.leases.adapters.nats;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;

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

    /** A release or revoke tombstone, or the server's expiry marker: the key is free, not held. */
    boolean freesKey() {
        return header(Subjects.HEADER_MARKER_REASON) != null || header(Subjects.HEADER_KV_OPERATION) != null;
    }
}
