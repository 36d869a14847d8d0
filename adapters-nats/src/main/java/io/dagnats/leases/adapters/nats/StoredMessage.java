package io.dagnats.leases.adapters.nats;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * A message as {@code $JS.API.STREAM.MSG.GET} returns it: its stream sequence,
 * when it was stored, its headers (names in lower case) and its body.
 */
record StoredMessage(long sequence, Instant time, Map<String, String> headers, byte[] data) {

    /** Header names are case-insensitive on the wire; lookups here use lower case. */
    String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }
}
