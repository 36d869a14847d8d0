package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One answer of {@code $JS.API.STREAM.MSG.GET}: a stored message, or the API
 * error that stood in for it.
 */
record StoredMessage(long sequence, Instant time, Map<String, String> headers, byte[] data) {

    /** The JetStream API error of a get or a publish. */
    record ApiError(int code, int errorCode, String description) {
        static final int NO_MESSAGE_FOUND = 10037;
        static final int STREAM_NOT_FOUND = 10059;
        static final int WRONG_LAST_SEQUENCE = 10071;
        /** The same refusal without the sequence in the text, as a recovering stream answers it. */
        static final int WRONG_LAST_SEQUENCE_CONSTANT = 10164;

        boolean wrongLastSequence() {
            return errorCode == WRONG_LAST_SEQUENCE || errorCode == WRONG_LAST_SEQUENCE_CONSTANT;
        }
    }

    /** Either a message or an error, never both. */
    record GetReply(StoredMessage message, ApiError error) {
    }

    /** Header names are case-insensitive on the wire; lookups here use lower case. */
    String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    static GetReply parseGetReply(JsonFactory json, byte[] body) throws IOException {
        try (JsonParser parser = json.createParser(body)) {
            expect(parser.nextToken(), JsonToken.START_OBJECT);
            StoredMessage message = null;
            ApiError error = null;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                parser.nextToken();
                switch (field) {
                    case "message" -> message = parseMessage(parser);
                    case "error" -> error = parseError(parser);
                    default -> parser.skipChildren();
                }
            }
            if (message == null && error == null) {
                throw new IOException("a message get reply with neither message nor error");
            }
            return new GetReply(message, error);
        }
    }

    /** A publish acknowledgement: the stored sequence, or the error that refused the write. */
    record PubAck(long sequence, ApiError error) {
    }

    static PubAck parsePubAck(JsonFactory json, byte[] body) throws IOException {
        try (JsonParser parser = json.createParser(body)) {
            expect(parser.nextToken(), JsonToken.START_OBJECT);
            long sequence = 0;
            ApiError error = null;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                parser.nextToken();
                switch (field) {
                    case "seq" -> sequence = parser.getLongValue();
                    case "error" -> error = parseError(parser);
                    default -> parser.skipChildren();
                }
            }
            if (error == null && sequence < 1) {
                throw new IOException("a publish acknowledgement without a sequence");
            }
            return new PubAck(sequence, error);
        }
    }

    private static StoredMessage parseMessage(JsonParser parser) throws IOException {
        expect(parser.currentToken(), JsonToken.START_OBJECT);
        long sequence = 0;
        Instant time = null;
        Map<String, String> headers = Map.of();
        byte[] data = new byte[0];
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            parser.nextToken();
            switch (field) {
                case "seq" -> sequence = parser.getLongValue();
                case "time" -> time = Instant.parse(parser.getText());
                case "hdrs" -> headers = parseHeaders(Base64.getDecoder().decode(parser.getText()));
                case "data" -> data = Base64.getDecoder().decode(parser.getText());
                default -> parser.skipChildren();
            }
        }
        if (sequence < 1 || time == null) {
            throw new IOException("a stored message without a sequence or a time");
        }
        return new StoredMessage(sequence, time, headers, data);
    }

    private static ApiError parseError(JsonParser parser) throws IOException {
        expect(parser.currentToken(), JsonToken.START_OBJECT);
        int code = 0;
        int errorCode = 0;
        String description = "";
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            parser.nextToken();
            switch (field) {
                case "code" -> code = parser.getIntValue();
                case "err_code" -> errorCode = parser.getIntValue();
                case "description" -> description = parser.getText();
                default -> parser.skipChildren();
            }
        }
        return new ApiError(code, errorCode, description);
    }

    /** Parses a {@code NATS/1.0} header block. The last value of a repeated name wins. */
    static Map<String, String> parseHeaders(byte[] block) {
        String text = new String(block, StandardCharsets.UTF_8);
        Map<String, String> headers = new HashMap<>();
        String[] lines = text.split("\r\n");
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
            }
        }
        return headers;
    }

    private static void expect(JsonToken actual, JsonToken expected) throws IOException {
        if (actual != expected) {
            throw new IOException("expected " + expected + " but found " + actual);
        }
    }
}
