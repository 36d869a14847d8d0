package io.dagnats.leases.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.protocol.LeaseView;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;

/**
 * The CLI's JSON for scripts: one object per line. A lease has the wire's
 * lease-view fields (docs/wire-protocol.md), plus {@code expires_in_ms} as this
 * machine's clock sees it.
 */
final class Json {

    private static final JsonFactory FACTORY = new JsonFactory();

    private Json() {
    }

    @FunctionalInterface
    interface Fields {
        void write(JsonGenerator generator) throws IOException;
    }

    /** One JSON object on one line. */
    static String object(Fields fields) {
        StringWriter text = new StringWriter();
        try (JsonGenerator generator = FACTORY.createGenerator(text)) {
            generator.writeStartObject();
            fields.write(generator);
            generator.writeEndObject();
        } catch (IOException impossible) {
            throw new UncheckedIOException(impossible);
        }
        return text.toString();
    }

    /** A lease's fields, without the braces (so a caller can add its own). */
    static void lease(JsonGenerator generator, LeaseView lease, Instant now) throws IOException {
        generator.writeStringField("key", lease.key().value());
        if (lease.account().isPresent()) {
            generator.writeStringField("account", lease.account().get().value());
        }
        generator.writeStringField("holder", lease.holder().value());
        fence(generator, "revision", lease.revision());
        generator.writeStringField("acquired_at", time(lease.acquiredAt()));
        generator.writeStringField("expires_at", time(lease.expiresAt()));
        generator.writeNumberField("ttl_ms", lease.ttl().millis());
        generator.writeNumberField("expires_in_ms", Math.max(0, Duration.between(now, lease.expiresAt()).toMillis()));
    }

    /** A fence as a JSON integer, unsigned (as the wire writes it). */
    static void fence(JsonGenerator generator, String field, Fence fence) throws IOException {
        generator.writeFieldName(field);
        if (fence.revision() >= 0) {
            generator.writeNumber(fence.revision());
        } else {
            generator.writeNumber(new BigInteger(Long.toUnsignedString(fence.revision())));
        }
    }

    static String time(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant);
    }
}
