package io.dagnats.leases.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.dagnats.leases.domain.InvalidLeaseInput;
import java.io.IOException;
import java.math.BigInteger;

/**
 * The one JSON shape of the contract, a single object of scalar fields, read with
 * Jackson's streaming API ({@link JsonObjects} writes it). Reading is strict (exactly
 * one object, no duplicate field, nothing after it, no deep nesting); what a field
 * may hold is the caller's {@link FieldReader}'s business.
 */
final class FlatJson {

    private static final int MAX_NESTING = 16;
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build())
            .build();

    private FlatJson() {
    }

    /** Reads one field's value; the parser stands on {@code value}. */
    @FunctionalInterface
    interface FieldReader {
        void field(String name, JsonToken value, JsonParser parser) throws IOException;
    }

    /**
     * Reads {@code body} as one JSON object, handing each field to {@code reader}.
     *
     * @param what names the body in a sentence: "the request body", "the reply"
     * @throws InvalidLeaseInput with a sentence naming what is wrong
     */
    static void read(byte[] body, String what, FieldReader reader) {
        if (body == null || body.length == 0) {
            throw new InvalidLeaseInput(what + " is empty; send a JSON object");
        }
        try (JsonParser parser = JSON.createParser(body)) {
            parser.nextToken();
            readObject(parser, what, reader);
            if (parser.nextToken() != null) {
                throw new InvalidLeaseInput(what + " has content after its JSON object");
            }
        } catch (StreamConstraintsException tooDeep) {
            throw new InvalidLeaseInput(what + " is nested too deeply");
        } catch (IOException malformed) {
            String message = malformed.getMessage() == null ? "" : malformed.getMessage();
            throw new InvalidLeaseInput(message.startsWith("Duplicate field")
                    ? what + " has a duplicate field"
                    : what + " is not valid JSON");
        }
    }

    /**
     * Reads the object the parser stands on (its {@code START_OBJECT}): a whole body, or
     * one nested in a body {@link #read} is reading. Hands each field to {@code reader}.
     */
    static void readObject(JsonParser parser, String what, FieldReader reader) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            throw new InvalidLeaseInput(what + " must be a JSON object");
        }
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            reader.field(field, parser.nextToken(), parser);
        }
        if (token != JsonToken.END_OBJECT) {
            throw new InvalidLeaseInput(what + " is not a complete JSON object");
        }
    }

    static InvalidLeaseInput unknownField(String field) {
        String shown = field.length() > 40 ? field.substring(0, 40) + "..." : field;
        StringBuilder safe = new StringBuilder(shown.length());
        shown.codePoints().forEach(c -> safe.appendCodePoint(c < 0x20 || c == '"' || c == '\\' ? '?' : c));
        return new InvalidLeaseInput("unknown field \"" + safe + "\"");
    }

    /**
     * A field's value as a reader kept it (null when the body left it out), for every reader of this shape.
     *
     * @throws InvalidLeaseInput naming the field when it is absent
     */
    static <T> T required(T value, String field) {
        if (value == null) {
            throw new InvalidLeaseInput(field + " is required");
        }
        return value;
    }

    static String string(JsonParser parser, JsonToken value, String field) throws IOException {
        if (value != JsonToken.VALUE_STRING) {
            throw new InvalidLeaseInput(field + " must be a string");
        }
        return parser.getText();
    }

    /** A JSON integer of at most 2^63-1: {@code 1.5e3}, {@code "15000"}, {@code true} are not. */
    static long integer(JsonParser parser, JsonToken value, String field) throws IOException {
        if (value != JsonToken.VALUE_NUMBER_INT) {
            throw new InvalidLeaseInput(field + " must be a JSON integer");
        }
        if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw new InvalidLeaseInput(parser.getBigIntegerValue().compareTo(LONG_MAX) > 0
                    ? field + " is too large"
                    : field + " is out of range");
        }
        return parser.getLongValue();
    }

    static boolean bool(JsonToken value, String field) {
        if (value != JsonToken.VALUE_TRUE && value != JsonToken.VALUE_FALSE) {
            throw new InvalidLeaseInput(field + " must be true or false");
        }
        return value == JsonToken.VALUE_TRUE;
    }
}
