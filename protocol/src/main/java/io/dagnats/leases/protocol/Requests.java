package io.dagnats.leases.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import java.io.IOException;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/**
 * Request bodies: decoded strictly into a {@link Request} on the service side,
 * encoded from one on the client side.
 *
 * <p>Decoding follows the contract's request table: a JSON object with no
 * duplicate and no unknown field; every field of the table is accepted on every
 * subject but must have the table's type (a string, or a JSON integer of at most
 * 2^63-1), and the fields an operation needs must be present and valid.
 */
public final class Requests {

    private static final String BODY = "the request body";

    private Requests() {
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request decode(Operation operation, byte[] body) {
        return switch (operation) {
            case ACQUIRE -> acquire(body);
            case RENEW -> renew(body);
            case RELEASE -> release(body);
            case OWNER -> owner(body);
            case FORWARD -> forward(body);
        };
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Acquire acquire(byte[] body) {
        Body fields = Body.read(body);
        return new Request.Acquire(new LeaseKey(fields.key), new HolderId(fields.holder),
                new LeaseTtl(fields.required(Body.TTL, Fields.TTL_MS)));
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Renew renew(byte[] body) {
        Body fields = Body.read(body);
        return new Request.Renew(new LeaseKey(fields.key), new HolderId(fields.holder), fields.revision(),
                fields.has(Body.TTL) ? Optional.of(new LeaseTtl(fields.ttlMillis)) : Optional.empty());
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Release release(byte[] body) {
        Body fields = Body.read(body);
        return new Request.Release(new LeaseKey(fields.key), new HolderId(fields.holder), fields.revision());
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Owner owner(byte[] body) {
        return new Request.Owner(new LeaseKey(Body.read(body).key));
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Forward forward(byte[] body) {
        Body fields = Body.read(body);
        LeaseKey key = new LeaseKey(fields.key);
        if (fields.payload == null) {
            throw new InvalidLeaseInput("payload is required (base64; it may encode 0 bytes)");
        }
        byte[] payload;
        try {
            payload = Base64.getDecoder().decode(fields.payload);
        } catch (IllegalArgumentException notBase64) {
            throw new InvalidLeaseInput("payload must be standard base64");
        }
        Duration timeout = fields.has(Body.TIMEOUT)
                ? Duration.ofMillis(fields.timeoutMillis)
                : Request.Forward.DEFAULT_TIMEOUT;
        return new Request.Forward(key, payload, timeout);
    }

    /** The body a client sends for {@code request}, on {@code request.operation().subject()}. */
    public static byte[] encode(Request request) {
        return FlatJson.write(generator -> {
            generator.writeStringField(Fields.KEY, request.key().value());
            if (request instanceof Request.Acquire acquire) {
                generator.writeStringField(Fields.HOLDER, acquire.holder().value());
                generator.writeNumberField(Fields.TTL_MS, acquire.ttl().millis());
            } else if (request instanceof Request.Renew renew) {
                generator.writeStringField(Fields.HOLDER, renew.holder().value());
                FlatJson.writeFence(generator, Fields.REVISION, renew.revision());
                if (renew.ttl().isPresent()) {
                    generator.writeNumberField(Fields.TTL_MS, renew.ttl().get().millis());
                }
            } else if (request instanceof Request.Release release) {
                generator.writeStringField(Fields.HOLDER, release.holder().value());
                FlatJson.writeFence(generator, Fields.REVISION, release.revision());
            } else if (request instanceof Request.Forward forward) {
                writeForward(generator, forward);
            }
        });
    }

    private static void writeForward(JsonGenerator generator, Request.Forward forward) throws IOException {
        generator.writeFieldName(Fields.PAYLOAD);
        generator.writeBinary(forward.payload());
        generator.writeNumberField(Fields.TIMEOUT_MS, forward.timeout().toMillis());
    }

    /**
     * The fields of one body as read, before any operation's rules: mutable and
     * short-lived, so the service's decode allocates no more than the strings and
     * the typed request it builds.
     */
    private static final class Body implements FlatJson.FieldReader {
        static final int TTL = 1;
        static final int REVISION = 2;
        static final int TIMEOUT = 4;

        private String key;
        private String holder;
        private String payload;
        private long ttlMillis;
        private long revision;
        private long timeoutMillis;
        private int present;

        static Body read(byte[] body) {
            Body fields = new Body();
            FlatJson.read(body, BODY, fields);
            return fields;
        }

        @Override
        public void field(String name, JsonToken value, JsonParser parser) throws IOException {
            switch (name) {
                case Fields.KEY -> key = FlatJson.string(parser, value, name);
                case Fields.HOLDER -> holder = FlatJson.string(parser, value, name);
                case Fields.PAYLOAD -> payload = FlatJson.string(parser, value, name);
                case Fields.TTL_MS -> {
                    ttlMillis = FlatJson.integer(parser, value, name);
                    present |= TTL;
                }
                case Fields.REVISION -> {
                    revision = FlatJson.integer(parser, value, name);
                    present |= REVISION;
                }
                case Fields.TIMEOUT_MS -> {
                    timeoutMillis = FlatJson.integer(parser, value, name);
                    present |= TIMEOUT;
                }
                default -> throw FlatJson.unknownField(name);
            }
        }

        boolean has(int field) {
            return (present & field) != 0;
        }

        long required(int field, String name) {
            if (!has(field)) {
                throw new InvalidLeaseInput(name + " is required");
            }
            return switch (field) {
                case TTL -> ttlMillis;
                case REVISION -> revision;
                default -> timeoutMillis;
            };
        }

        /** A request's revision is a signed JSON integer: below 1 is not a fence it may send. */
        Fence revision() {
            long value = required(REVISION, Fields.REVISION);
            if (value < 1) {
                throw new InvalidLeaseInput("revision must be 1 or more");
            }
            return new Fence(value);
        }
    }
}
