package io.dagnats.leases.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.dagnats.leases.domain.Fence;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;

/**
 * Writes one JSON object with Jackson's streaming generator: the braces around the fields a
 * caller writes, and a fence as the contract writes it. The contract's codecs use it, and so
 * do dagnats' own modules that write JSON of their own (the stored lease record, the micro
 * service's discovery replies, the CLI's lines), which would otherwise each repeat it. Not
 * itself part of the wire contract.
 */
public final class JsonObjects {

    private static final JsonFactory JSON = new JsonFactory();

    private JsonObjects() {
    }

    /** Writes the fields of one object, between braces {@link JsonObjects} writes. */
    @FunctionalInterface
    public interface Fields {
        void write(JsonGenerator generator) throws IOException;
    }

    /** The object as UTF-8 bytes: a message body, a stored value. */
    public static byte[] bytes(Fields fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator generator = JSON.createGenerator(out)) {
            write(generator, fields);
        } catch (IOException inMemory) {
            throw new UncheckedIOException(inMemory);
        }
        return out.toByteArray();
    }

    /**
     * The object as text, for a line a person or a script reads. Not {@code bytes} decoded:
     * Jackson's byte writer escapes a character beyond the Basic Multilingual Plane
     * ({@code \uD83D\uDE00}), its text writer writes it as it is.
     */
    public static String text(Fields fields) {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = JSON.createGenerator(out)) {
            write(generator, fields);
        } catch (IOException inMemory) {
            throw new UncheckedIOException(inMemory);
        }
        return out.toString();
    }

    /** A fence as a JSON integer, unsigned (the revisions dagnats writes are far below 2^63). */
    public static void writeFence(JsonGenerator generator, String field, Fence fence) throws IOException {
        generator.writeFieldName(field);
        if (fence.revision() >= 0) {
            generator.writeNumber(fence.revision());
        } else {
            generator.writeNumber(new BigInteger(Long.toUnsignedString(fence.revision())));
        }
    }

    private static void write(JsonGenerator generator, Fields fields) throws IOException {
        generator.writeStartObject();
        fields.write(generator);
        generator.writeEndObject();
    }
}
