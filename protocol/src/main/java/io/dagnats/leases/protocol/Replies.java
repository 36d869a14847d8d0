package io.dagnats.leases.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Release;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Reply bodies: encoded by the service (every reply is JSON, errors included),
 * decoded by a client into {@link Answers} or an {@link ErrorReply}.
 */
public final class Replies {

    private Replies() {
    }

    // ---- the service's side: encoding ----

    /** An acquire or renew answer: the lease view with {@code granted}. */
    public static byte[] lease(Lease lease, boolean granted) {
        return FlatJson.write(generator -> {
            generator.writeBooleanField(Fields.GRANTED, granted);
            leaseView(generator, lease);
        });
    }

    /** An owner answer: the lease view without {@code granted}, or {@code held: false}. */
    public static byte[] owner(KeyState state) {
        if (state instanceof KeyState.Held held) {
            return FlatJson.write(generator -> leaseView(generator, held.lease()));
        }
        return FlatJson.write(generator -> {
            generator.writeBooleanField(Fields.HELD, false);
            generator.writeStringField(Fields.KEY, state.key().value());
        });
    }

    public static byte[] released(Release.Released released) {
        return FlatJson.write(generator -> {
            generator.writeBooleanField(Fields.RELEASED, true);
            generator.writeStringField(Fields.KEY, released.key().value());
            generator.writeStringField(Fields.HOLDER, released.holder().value());
            FlatJson.writeFence(generator, Fields.REVISION, released.revision());
        });
    }

    /** A forward answer: the owner that answered, the fence it was sent, and its reply in base64. */
    public static byte[] forwarded(Lease owner, byte[] reply) {
        return FlatJson.write(generator -> {
            generator.writeStringField(Fields.KEY, owner.key().value());
            generator.writeStringField(Fields.HOLDER, owner.holder().value());
            FlatJson.writeFence(generator, Fields.REVISION, owner.revision());
            generator.writeFieldName(Fields.PAYLOAD);
            generator.writeBinary(reply);
        });
    }

    /** A forward error naming the owner last tried. */
    public static byte[] forwardError(ErrorKind kind, String sentence, Lease lastTried) {
        return FlatJson.write(generator -> {
            generator.writeStringField(Fields.ERROR, sentence);
            generator.writeStringField(Fields.KIND, Kinds.wireName(kind));
            generator.writeStringField(Fields.HOLDER, lastTried.holder().value());
            FlatJson.writeFence(generator, Fields.REVISION, lastTried.revision());
        });
    }

    public static byte[] error(ErrorKind kind, String sentence) {
        return FlatJson.write(generator -> {
            generator.writeStringField(Fields.ERROR, sentence);
            generator.writeStringField(Fields.KIND, Kinds.wireName(kind));
        });
    }

    private static void leaseView(JsonGenerator generator, Lease lease) throws IOException {
        generator.writeBooleanField(Fields.HELD, true);
        generator.writeStringField(Fields.KEY, lease.key().value());
        generator.writeStringField(Fields.HOLDER, lease.holder().value());
        FlatJson.writeFence(generator, Fields.REVISION, lease.revision());
        generator.writeStringField(Fields.ACQUIRED_AT, DateTimeFormatter.ISO_INSTANT.format(lease.acquiredAt()));
        generator.writeStringField(Fields.EXPIRES_AT, DateTimeFormatter.ISO_INSTANT.format(lease.expiresAt()));
        generator.writeNumberField(Fields.TTL_MS, lease.ttl().millis());
    }

    // ---- a client's side: decoding ----

    /** @throws ErrorReply for an error reply, or one that breaks the contract */
    public static Answers.Acquire decodeAcquire(byte[] body) {
        Reply reply = Reply.read(Operation.ACQUIRE, body);
        return reply.answer(() -> {
            LeaseView lease = reply.view();
            return reply.flag(reply.granted, Fields.GRANTED)
                    ? new Answers.Acquire.Granted(lease)
                    : new Answers.Acquire.HeldByOther(lease);
        });
    }

    /** @throws ErrorReply for an error reply but {@code lost}, or one that breaks the contract */
    public static Answers.Renew decodeRenew(byte[] body) {
        Reply reply = Reply.read(Operation.RENEW, body);
        return reply.answer(() -> reply.kind == ErrorKind.LOST
                ? new Answers.Renew.Lost(reply.error())
                : new Answers.Renew.Renewed(reply.view()));
    }

    /** @throws ErrorReply for an error reply but {@code lost}, or one that breaks the contract */
    public static Answers.Release decodeRelease(byte[] body) {
        Reply reply = Reply.read(Operation.RELEASE, body);
        return reply.answer(() -> reply.kind == ErrorKind.LOST
                ? new Answers.Release.Lost(reply.error())
                : new Answers.Release.Released(new LeaseKey(reply.key), new HolderId(reply.holder), reply.fence()));
    }

    /** @throws ErrorReply for an error reply, or one that breaks the contract */
    public static Answers.Owner decodeOwner(byte[] body) {
        Reply reply = Reply.read(Operation.OWNER, body);
        return reply.answer(() -> reply.flag(reply.held, Fields.HELD)
                ? new Answers.Owner.Held(reply.view())
                : new Answers.Owner.Free(new LeaseKey(reply.key)));
    }

    /** @throws ErrorReply for an error reply that is no forward outcome, or one that breaks the contract */
    public static Answers.Forward decodeForward(byte[] body) {
        Reply reply = Reply.read(Operation.FORWARD, body);
        return reply.answer(() -> {
            if (reply.kind != null) {
                return new Answers.Forward.NotAnswered(reply.kind, reply.error(),
                        Optional.ofNullable(reply.holder).map(HolderId::new),
                        reply.hasRevision ? Optional.of(reply.fence()) : Optional.empty());
            }
            return new Answers.Forward.Answered(new HolderId(reply.holder), reply.fence(),
                    Base64.getDecoder().decode(reply.required(reply.payload, Fields.PAYLOAD)));
        });
    }

    /** One reply's fields as read. Fields this client does not know are skipped: a newer dagnats may add some. */
    private static final class Reply implements FlatJson.FieldReader {
        private final Operation operation;
        private String key;
        private String holder;
        private String payload;
        private String acquiredAt;
        private String expiresAt;
        private String errorSentence;
        private String kindName;
        private ErrorKind kind;
        private long revision;
        private boolean hasRevision;
        private long ttlMillis;
        private boolean hasTtl;
        private Boolean granted;
        private Boolean held;

        private Reply(Operation operation) {
            this.operation = operation;
        }

        static Reply read(Operation operation, byte[] body) {
            Reply reply = new Reply(operation);
            try {
                FlatJson.read(body, "the reply", reply);
            } catch (InvalidLeaseInput broken) {
                throw reply.broken(broken.getMessage());
            }
            if (reply.kindName != null) {
                reply.kind = Kinds.fromWireName(reply.kindName)
                        .orElseThrow(() -> reply.broken("it names an unknown kind \"" + reply.kindName + "\""));
                if (!isAnswer(operation, reply.kind)) {
                    throw new ErrorReply(reply.kind, reply.errorSentence == null ? "" : reply.errorSentence);
                }
            }
            return reply;
        }

        /** Whether {@code kind} is one of the normal answers of {@code operation}, not a failure. */
        private static boolean isAnswer(Operation operation, ErrorKind kind) {
            return switch (operation) {
                case RENEW, RELEASE -> kind == ErrorKind.LOST;
                case FORWARD -> kind == ErrorKind.NO_OWNER || kind == ErrorKind.OWNER_UNAVAILABLE
                        || kind == ErrorKind.OWNER_REJECTED || kind == ErrorKind.OWNER_TIMEOUT
                        || kind == ErrorKind.REPLY_TOO_LARGE;
                case ACQUIRE, OWNER -> false;
            };
        }

        @Override
        public void field(String name, JsonToken value, JsonParser parser) throws IOException {
            switch (name) {
                case Fields.KEY -> key = FlatJson.string(parser, value, name);
                case Fields.HOLDER -> holder = FlatJson.string(parser, value, name);
                case Fields.PAYLOAD -> payload = FlatJson.string(parser, value, name);
                case Fields.ACQUIRED_AT -> acquiredAt = FlatJson.string(parser, value, name);
                case Fields.EXPIRES_AT -> expiresAt = FlatJson.string(parser, value, name);
                case Fields.ERROR -> errorSentence = FlatJson.string(parser, value, name);
                case Fields.KIND -> kindName = FlatJson.string(parser, value, name);
                case Fields.REVISION -> {
                    revision = FlatJson.integer(parser, value, name);
                    hasRevision = true;
                }
                case Fields.TTL_MS -> {
                    ttlMillis = FlatJson.integer(parser, value, name);
                    hasTtl = true;
                }
                case Fields.GRANTED -> granted = FlatJson.bool(value, name);
                case Fields.HELD -> held = FlatJson.bool(value, name);
                default -> parser.skipChildren();
            }
        }

        /** Builds the answer; a value that breaks the contract is an {@link ErrorReply}, never anything else. */
        <A> A answer(Supplier<A> build) {
            try {
                return build.get();
            } catch (DateTimeParseException | IllegalArgumentException broken) {
                throw broken(broken.getMessage());
            }
        }

        LeaseView view() {
            if (!hasTtl) {
                throw new InvalidLeaseInput(Fields.TTL_MS + " is missing");
            }
            return new LeaseView(new LeaseKey(key), new HolderId(holder), fence(),
                    Instant.parse(required(acquiredAt, Fields.ACQUIRED_AT)),
                    Instant.parse(required(expiresAt, Fields.EXPIRES_AT)),
                    new LeaseTtl(ttlMillis));
        }

        Fence fence() {
            if (!hasRevision || revision < 1) {
                throw new InvalidLeaseInput(Fields.REVISION + " is missing or below 1");
            }
            return new Fence(revision);
        }

        boolean flag(Boolean value, String field) {
            if (value == null) {
                throw new InvalidLeaseInput(field + " is missing");
            }
            return value;
        }

        String required(String value, String field) {
            if (value == null) {
                throw new InvalidLeaseInput(field + " is missing");
            }
            return value;
        }

        String error() {
            return errorSentence == null ? "" : errorSentence;
        }

        ErrorReply broken(String why) {
            return new ErrorReply(ErrorKind.INTERNAL, "dagnats answered " + operation.endpointName()
                    + " with a reply that breaks the contract: " + why);
        }
    }
}
