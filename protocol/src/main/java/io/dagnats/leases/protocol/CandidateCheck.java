package io.dagnats.leases.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * dagnats' targeted check before a handover, on {@code dagnats.lease.candidate.<holder>.<key>}
 * (ADR-042): {@code {"incarnation":I,"check":C}}. {@code check} names this one check (ADR-046): a
 * successor that says yes remembers when it said so, and dagnats' grant after the write, on the same
 * subject with {@link LeaseHeaders#CHECK} set to it, is the answer to that yes. A check from a dagnats
 * before ADR-046 has no {@code check}: its yes is answered by no grant, and the successor confirms
 * with a renew of its own as before.
 */
public record CandidateCheck(String incarnation, Optional<String> check) {

    public CandidateCheck {
        Objects.requireNonNull(incarnation, "incarnation");
        Objects.requireNonNull(check, "check");
    }

    public byte[] encode() {
        return JsonObjects.bytes(generator -> {
            generator.writeStringField(Fields.INCARNATION, incarnation);
            if (check.isPresent()) {
                generator.writeStringField(Fields.CHECK, check.get());
            }
        });
    }

    /** The check {@code body} asks; empty when it names no incarnation (or is no JSON object). */
    public static Optional<CandidateCheck> decode(byte[] body) {
        if (body == null || body.length == 0) {
            return Optional.empty();
        }
        Reader reader = new Reader();
        try {
            FlatJson.read(body, "a candidate check", reader);
        } catch (IllegalArgumentException unreadable) {
            return Optional.empty();
        }
        return Optional.ofNullable(reader.incarnation)
                .map(incarnation -> new CandidateCheck(incarnation, Optional.ofNullable(reader.check)));
    }

    private static final class Reader implements FlatJson.FieldReader {
        private String incarnation;
        private String check;

        @Override
        public void field(String name, JsonToken value, JsonParser parser) throws IOException {
            if (Fields.INCARNATION.equals(name) && value == JsonToken.VALUE_STRING) {
                incarnation = parser.getText();
            } else if (Fields.CHECK.equals(name) && value == JsonToken.VALUE_STRING && !parser.getText().isEmpty()) {
                check = parser.getText();
            } else {
                parser.skipChildren();
            }
        }
    }
}
