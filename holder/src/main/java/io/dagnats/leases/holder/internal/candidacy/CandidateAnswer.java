package io.dagnats.leases.holder.internal.candidacy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.Candidate;
import io.dagnats.leases.protocol.JsonObjects;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * A candidate's answer on {@code dagnats.lease.candidates.<key>} and the targeted
 * {@code dagnats.lease.candidate.<holder>.<key>} (ADR-042): one JSON object,
 * {@code {"key","holder","incarnation","priority","version","waited_ms","state"}}, written and read
 * here; what does not read as one (another key, a missing field, a negative wait) is no candidate.
 */
public final class CandidateAnswer {

    private static final JsonFactory JSON = new JsonFactory();

    private CandidateAnswer() {
    }

    public static byte[] write(LeaseKey key, Candidate candidate) {
        return JsonObjects.bytes(json -> {
            json.writeStringField("key", key.value());
            json.writeStringField("holder", candidate.holder().value());
            json.writeStringField("incarnation", candidate.incarnation().value());
            json.writeNumberField("priority", candidate.priority());
            json.writeStringField("version", candidate.version());
            json.writeNumberField("waited_ms", candidate.waited().toMillis());
            json.writeStringField("state", candidate.owner() ? "owner" : "waiting");
        });
    }

    /** The candidate {@code body} names for {@code key}; empty for anything else. */
    public static Optional<Candidate> read(LeaseKey key, byte[] body) {
        if (body == null || body.length == 0) {
            return Optional.empty();
        }
        try (JsonParser parser = JSON.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            String keyText = null;
            String holder = null;
            String incarnation = null;
            String version = null;
            String state = null;
            Long priority = null;
            Long waited = null;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.getCurrentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "key" -> keyText = text(parser, value);
                    case "holder" -> holder = text(parser, value);
                    case "incarnation" -> incarnation = text(parser, value);
                    case "version" -> version = text(parser, value);
                    case "state" -> state = text(parser, value);
                    case "priority" -> priority = value == JsonToken.VALUE_NUMBER_INT ? parser.getLongValue() : null;
                    case "waited_ms" -> waited = value == JsonToken.VALUE_NUMBER_INT ? parser.getLongValue() : null;
                    default -> parser.skipChildren();
                }
            }
            if (!key.value().equals(keyText) || holder == null || incarnation == null || version == null
                    || priority == null || waited == null || waited < 0
                    || priority < Integer.MIN_VALUE || priority > Integer.MAX_VALUE
                    || !("waiting".equals(state) || "owner".equals(state))) {
                return Optional.empty();
            }
            return Optional.of(new Candidate(new HolderId(holder), new Incarnation(incarnation), priority.intValue(),
                    version, Duration.ofMillis(waited), "owner".equals(state)));
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    private static String text(JsonParser parser, JsonToken value) throws IOException {
        return value == JsonToken.VALUE_STRING ? parser.getText() : null;
    }

    /** The incarnation a targeted check asks for: {@code {"incarnation":I}}; empty when it names none. */
    public static Optional<String> askedIncarnation(byte[] body) {
        if (body == null || body.length == 0) {
            return Optional.empty();
        }
        try (JsonParser parser = JSON.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.getCurrentName();
                JsonToken value = parser.nextToken();
                if ("incarnation".equals(field) && value == JsonToken.VALUE_STRING) {
                    return Optional.of(parser.getText());
                }
                parser.skipChildren();
            }
            return Optional.empty();
        } catch (IOException unreadable) {
            return Optional.empty();
        }
    }
}
