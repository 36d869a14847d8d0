package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.dagnats.leases.domain.InvalidLeaseInput;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Set;

/**
 * A lease request body, decoded strictly: a JSON object with no duplicate and no
 * unknown field, strings where strings belong and JSON integers where integers
 * belong. Which fields an operation needs is the operation's business; every
 * field of the contract's table is accepted on every subject.
 */
final class LeaseRequest {

    static final Set<String> FIELDS = Set.of("key", "holder", "ttl_ms", "revision", "payload", "timeout_ms");

    private static final long MISSING = Long.MIN_VALUE;
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final int MAX_NESTING = 16;

    static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build())
            .build();

    private String key;
    private String holder;
    private String payload;
    private long ttlMillis = MISSING;
    private long revision = MISSING;
    private long timeoutMillis = MISSING;

    private LeaseRequest() {
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    static LeaseRequest parse(byte[] body) {
        if (body == null || body.length == 0) {
            throw new InvalidLeaseInput("the request body is empty; send a JSON object");
        }
        LeaseRequest request = new LeaseRequest();
        try (JsonParser parser = JSON.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new InvalidLeaseInput("the request body must be a JSON object");
            }
            JsonToken token;
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                if (!FIELDS.contains(field)) {
                    throw new InvalidLeaseInput("unknown field \"" + printable(field) + "\"");
                }
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "key" -> request.key = string(parser, value, field);
                    case "holder" -> request.holder = string(parser, value, field);
                    case "payload" -> request.payload = string(parser, value, field);
                    case "ttl_ms" -> request.ttlMillis = integer(parser, value, field);
                    case "revision" -> request.revision = integer(parser, value, field);
                    case "timeout_ms" -> request.timeoutMillis = integer(parser, value, field);
                    default -> throw new IllegalStateException("a field of FIELDS without a case: " + field);
                }
            }
            if (token != JsonToken.END_OBJECT) {
                throw new InvalidLeaseInput("the request body is not a complete JSON object");
            }
            if (parser.nextToken() != null) {
                throw new InvalidLeaseInput("the request body has content after its JSON object");
            }
        } catch (StreamConstraintsException tooDeep) {
            throw new InvalidLeaseInput("the request body is nested too deeply");
        } catch (IOException malformed) {
            throw new InvalidLeaseInput(malformedSentence(malformed));
        }
        return request;
    }

    private static String string(JsonParser parser, JsonToken value, String field) throws IOException {
        if (value != JsonToken.VALUE_STRING) {
            throw new InvalidLeaseInput(field + " must be a string");
        }
        return parser.getText();
    }

    private static long integer(JsonParser parser, JsonToken value, String field) throws IOException {
        if (value != JsonToken.VALUE_NUMBER_INT) {
            throw new InvalidLeaseInput(field + " must be a JSON integer");
        }
        if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                && parser.getBigIntegerValue().compareTo(LONG_MAX) > 0) {
            throw new InvalidLeaseInput(field + " is too large");
        }
        if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw new InvalidLeaseInput(field + " is out of range");
        }
        return parser.getLongValue();
    }

    private static String malformedSentence(IOException malformed) {
        String message = malformed.getMessage() == null ? "" : malformed.getMessage();
        if (message.startsWith("Duplicate field")) {
            return "the request body has a duplicate field";
        }
        return "the request body is not valid JSON";
    }

    private static String printable(String field) {
        String shown = field.length() > 40 ? field.substring(0, 40) + "..." : field;
        StringBuilder safe = new StringBuilder(shown.length());
        shown.codePoints().forEach(c -> safe.appendCodePoint(c < 0x20 || c == '"' || c == '\\' ? '?' : c));
        return safe.toString();
    }

    String key() {
        return key;
    }

    String holder() {
        return holder;
    }

    String payload() {
        return payload;
    }

    /** @throws InvalidLeaseInput when absent */
    long requiredInteger(String field) {
        long value = integerOrMissing(field);
        if (value == MISSING) {
            throw new InvalidLeaseInput(field + " is required");
        }
        return value;
    }

    boolean has(String field) {
        return switch (field) {
            case "key" -> key != null;
            case "holder" -> holder != null;
            case "payload" -> payload != null;
            default -> integerOrMissing(field) != MISSING;
        };
    }

    private long integerOrMissing(String field) {
        return switch (field) {
            case "ttl_ms" -> ttlMillis;
            case "revision" -> revision;
            case "timeout_ms" -> timeoutMillis;
            default -> throw new IllegalArgumentException("not an integer field: " + field);
        };
    }
}
