package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.dagnats.leases.application.ErrorKind;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Release;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.format.DateTimeFormatter;

/** The JSON reply bodies of the contract. Every reply is JSON, errors included. */
final class LeaseReplies {

    private static final JsonFactory JSON = new JsonFactory();

    private LeaseReplies() {
    }

    /** An acquire or renew answer: the lease view with {@code granted}. */
    static byte[] lease(Lease lease, boolean granted) {
        return write(generator -> {
            generator.writeBooleanField("granted", granted);
            leaseView(generator, lease);
        });
    }

    /** An owner answer: the lease view without {@code granted}, or {@code held: false}. */
    static byte[] owner(KeyState state) {
        if (state instanceof KeyState.Held held) {
            return write(generator -> leaseView(generator, held.lease()));
        }
        return free(state.key());
    }

    static byte[] free(LeaseKey key) {
        return write(generator -> {
            generator.writeBooleanField("held", false);
            generator.writeStringField("key", key.value());
        });
    }

    static byte[] released(Release.Released released) {
        return write(generator -> {
            generator.writeBooleanField("released", true);
            generator.writeStringField("key", released.key().value());
            generator.writeStringField("holder", released.holder().value());
            generator.writeNumberField("revision", released.revision().revision());
        });
    }

    /** A forward answer: the owner that answered, the fence it was sent, and its reply in base64. */
    static byte[] forwarded(Lease owner, byte[] reply) {
        return write(generator -> {
            generator.writeStringField("key", owner.key().value());
            generator.writeStringField("holder", owner.holder().value());
            generator.writeNumberField("revision", owner.revision().revision());
            generator.writeFieldName("payload");
            generator.writeBinary(reply);
        });
    }

    /** A forward error naming the owner last tried. */
    static byte[] forwardError(ErrorKind kind, String sentence, Lease lastTried) {
        return write(generator -> {
            generator.writeStringField("error", sentence);
            generator.writeStringField("kind", kind.wireName());
            generator.writeStringField("holder", lastTried.holder().value());
            generator.writeNumberField("revision", lastTried.revision().revision());
        });
    }

    static byte[] error(ErrorKind kind, String sentence) {
        return write(generator -> {
            generator.writeStringField("error", sentence);
            generator.writeStringField("kind", kind.wireName());
        });
    }

    private static void leaseView(JsonGenerator generator, Lease lease) throws IOException {
        generator.writeBooleanField("held", true);
        generator.writeStringField("key", lease.key().value());
        generator.writeStringField("holder", lease.holder().value());
        generator.writeNumberField("revision", lease.revision().revision());
        generator.writeStringField("acquired_at", DateTimeFormatter.ISO_INSTANT.format(lease.acquiredAt()));
        generator.writeStringField("expires_at", DateTimeFormatter.ISO_INSTANT.format(lease.expiresAt()));
        generator.writeNumberField("ttl_ms", lease.ttl().millis());
    }

    @FunctionalInterface
    private interface Fields {
        void write(JsonGenerator generator) throws IOException;
    }

    private static byte[] write(Fields fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator generator = JSON.createGenerator(out)) {
            generator.writeStartObject();
            fields.write(generator);
            generator.writeEndObject();
        } catch (IOException impossible) {
            throw new UncheckedIOException(impossible);
        }
        return out.toByteArray();
    }
}
