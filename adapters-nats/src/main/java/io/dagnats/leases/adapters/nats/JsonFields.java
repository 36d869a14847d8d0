package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Walks the fields of one JSON object in the JetStream replies and lease records
 * this adapter reads. Unlike the protocol's strict reader of client requests, it
 * tolerates fields it does not know and nested objects: the server adds fields
 * between versions, and what it sends is not a client's mistake.
 */
final class JsonFields {

    private JsonFields() {
    }

    /** Reads one field's value; the parser stands on the value. */
    @FunctionalInterface
    interface FieldReader {
        void field(String name, JsonParser value) throws IOException;
    }

    /**
     * Hands each field of the object {@code parser} stands on to {@code reader}, and
     * skips whatever value the reader left unread, so readers name only the fields they want.
     *
     * @throws IOException when the parser does not stand on the start of an object
     */
    static void forEach(JsonParser parser, FieldReader reader) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            throw new IOException("expected " + JsonToken.START_OBJECT + " but found " + parser.currentToken());
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            reader.field(name, parser);
            // A no-op on a scalar or on the end of an object the reader walked; skips an unread object or array.
            parser.skipChildren();
        }
    }
}
