package io.dagnats.leases.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Release;
import io.dagnats.leases.domain.Revocation;
import java.io.IOException;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Reply bodies: encoded by the service (every reply is JSON, errors included),
 * decoded by a client into {@link Answers} or an {@link DagnatsException}.
 */
public final class Replies {

    private Replies() {
    }

    // ---- the service's side: encoding ----

    /** An acquire or renew answer: the lease view with {@code granted}. */
    public static byte[] lease(Lease lease, boolean granted) {
        byte[] plain = LeaseViewBytes.write(granted, lease);
        if (plain != null) {
            return plain;
        }
        return FlatJson.write(generator -> {
            generator.writeBooleanField(Fields.GRANTED, granted);
            leaseView(generator, lease);
        });
    }

    /** An owner answer: the lease view without {@code granted}, or {@code held: false}. */
    public static byte[] owner(KeyState state) {
        if (state instanceof KeyState.Held held) {
            byte[] plain = LeaseViewBytes.write(null, held.lease());
            return plain != null ? plain : FlatJson.write(generator -> leaseView(generator, held.lease()));
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

    /**
     * A list answer: the leases of one page, each the lease view without {@code granted},
     * and {@code next_cursor} when there may be more.
     */
    public static byte[] list(List<Lease> leases, Optional<String> nextCursor) {
        return FlatJson.write(generator -> {
            generator.writeArrayFieldStart(Fields.LEASES);
            for (Lease lease : leases) {
                generator.writeStartObject();
                leaseView(generator, lease);
                generator.writeEndObject();
            }
            generator.writeEndArray();
            if (nextCursor.isPresent()) {
                generator.writeStringField(Fields.NEXT_CURSOR, nextCursor.get());
            }
        });
    }

    /**
     * A revoke answer: {@code revoked: true} with the holder and fence that ended and the
     * revision of the revoke write; {@code revoked: false} with {@code held: false} for a
     * free key; {@code revoked: false} with the current lease's view when the revision sent
     * is not its fence.
     */
    public static byte[] revoked(Revocation revocation) {
        if (revocation instanceof Revocation.Revoked revoked) {
            return FlatJson.write(generator -> {
                generator.writeBooleanField(Fields.REVOKED, true);
                generator.writeStringField(Fields.KEY, revoked.key().value());
                generator.writeStringField(Fields.HOLDER, revoked.holder().value());
                FlatJson.writeFence(generator, Fields.REVISION, revoked.revision());
                FlatJson.writeFence(generator, Fields.REVOKED_REVISION, revoked.revokedRevision());
            });
        }
        if (revocation instanceof Revocation.NotCurrent notCurrent) {
            return FlatJson.write(generator -> {
                generator.writeBooleanField(Fields.REVOKED, false);
                leaseView(generator, notCurrent.lease());
            });
        }
        return FlatJson.write(generator -> {
            generator.writeBooleanField(Fields.REVOKED, false);
            generator.writeBooleanField(Fields.HELD, false);
            generator.writeStringField(Fields.KEY, revocation.key().value());
        });
    }

    /** A forward answer: the owner that answered, the fence it was sent, and its reply in base64. */
    public static byte[] forwarded(Lease owner, byte[] reply) {
        return FlatJson.write(generator -> {
            generator.writeStringField(Fields.KEY, owner.key().value());
            generator.writeStringField(Fields.HOLDER, owner.holder().value());
            if (owner.incarnation().isPresent()) {
                generator.writeStringField(Fields.INCARNATION, owner.incarnation().get().value());
            }
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
            if (lastTried.incarnation().isPresent()) {
                generator.writeStringField(Fields.INCARNATION, lastTried.incarnation().get().value());
            }
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
        if (lease.key().account().isPresent()) {
            // Identity mode (ADR-036): whose namespace; an operator's listing spans several.
            generator.writeStringField(Fields.ACCOUNT, lease.key().account().get().value());
        }
        generator.writeStringField(Fields.HOLDER, lease.holder().value());
        if (lease.incarnation().isPresent()) {
            generator.writeStringField(Fields.INCARNATION, lease.incarnation().get().value());
        }
        FlatJson.writeFence(generator, Fields.REVISION, lease.revision());
        FlatJson.writeFence(generator, Fields.TENURE, lease.tenure());
        generator.writeStringField(Fields.ACQUIRED_AT, Timestamps.format(lease.acquiredAt()));
        generator.writeStringField(Fields.EXPIRES_AT, Timestamps.format(lease.expiresAt()));
        generator.writeNumberField(Fields.TTL_MS, lease.ttl().millis());
    }

    // ---- a client's side: decoding ----

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    public static Answers.Acquire decodeAcquire(byte[] body) {
        return decode(Operation.ACQUIRE, body, (fields, kind) -> {
            LeaseView lease = view(fields);
            return WireFields.required(fields.granted, Fields.GRANTED)
                    ? new Answers.Acquire.Granted(lease)
                    : new Answers.Acquire.HeldByOther(lease);
        });
    }

    /** @throws DagnatsException for an error reply but {@code lost}, or one that breaks the contract */
    public static Answers.Renew decodeRenew(byte[] body) {
        return decode(Operation.RENEW, body, (fields, kind) -> kind == ErrorKind.LOST
                ? new Answers.Renew.Lost(sentence(fields))
                : new Answers.Renew.Renewed(view(fields)));
    }

    /** @throws DagnatsException for an error reply but {@code lost}, or one that breaks the contract */
    public static Answers.Release decodeRelease(byte[] body) {
        return decode(Operation.RELEASE, body, (fields, kind) -> kind == ErrorKind.LOST
                ? new Answers.Release.Lost(sentence(fields))
                : new Answers.Release.Released(new LeaseKey(fields.key), new HolderId(fields.holder), fence(fields)));
    }

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    public static Answers.Owner decodeOwner(byte[] body) {
        return decode(Operation.OWNER, body, (fields, kind) -> WireFields.required(fields.held, Fields.HELD)
                ? new Answers.Owner.Held(view(fields))
                : new Answers.Owner.Free(new LeaseKey(fields.key)));
    }

    /** @throws DagnatsException for an error reply that is no forward outcome, or one that breaks the contract */
    public static Answers.Forward decodeForward(byte[] body) {
        return decode(Operation.FORWARD, body, (fields, kind) -> {
            if (kind != null) {
                return new Answers.Forward.NotAnswered(kind, sentence(fields),
                        Optional.ofNullable(fields.holder).map(HolderId::new),
                        fields.has(WireFields.REVISION) ? Optional.of(fence(fields)) : Optional.empty());
            }
            return new Answers.Forward.Answered(new HolderId(fields.holder), fence(fields),
                    Base64.getDecoder().decode(WireFields.required(fields.payload, Fields.PAYLOAD)));
        });
    }

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    public static Answers.Listing decodeList(byte[] body) {
        return decode(Operation.LIST, body, (fields, kind) -> {
            List<LeaseView> leases = new ArrayList<>();
            for (WireFields lease : WireFields.required(fields.leases, Fields.LEASES)) {
                leases.add(view(lease));
            }
            return new Answers.Listing(leases, Optional.ofNullable(fields.nextCursor));
        });
    }

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    public static Answers.Revoke decodeRevoke(byte[] body) {
        return decode(Operation.REVOKE, body, (fields, kind) -> {
            if (WireFields.required(fields.revoked, Fields.REVOKED)) {
                return new Answers.Revoke.Revoked(new LeaseKey(fields.key), new HolderId(fields.holder),
                        fence(fields), revokedFence(fields));
            }
            return WireFields.required(fields.held, Fields.HELD)
                    ? new Answers.Revoke.NotCurrent(view(fields))
                    : new Answers.Revoke.Free(new LeaseKey(fields.key));
        });
    }

    /** Builds one operation's answer from a reply that is one: an error reply or not, {@code kind} says. */
    @FunctionalInterface
    private interface Answer<A> {
        A from(WireFields fields, ErrorKind kind);
    }

    private static <A> A decode(Operation operation, byte[] body, Answer<A> answer) {
        try {
            WireFields fields = WireFields.reply(body);
            ErrorKind kind = null;
            if (fields.kind != null) {
                kind = Kinds.fromWireName(fields.kind).orElseThrow(
                        () -> new InvalidLeaseInput("it names an unknown kind \"" + fields.kind + "\""));
                if (!isAnswer(operation, kind)) {
                    throw new DagnatsException(kind, sentence(fields));
                }
            }
            return answer.from(fields, kind);
        } catch (DateTimeParseException | IllegalArgumentException broken) {
            // InvalidLeaseInput included: a reply whose values break the contract is dagnats' fault, not the caller's.
            throw new DagnatsException(ErrorKind.INTERNAL, "dagnats answered " + operation.endpointName()
                    + " with a reply that breaks the contract: " + broken.getMessage());
        }
    }

    /** Whether {@code kind} is one of the normal answers of {@code operation}, not a failure. */
    private static boolean isAnswer(Operation operation, ErrorKind kind) {
        return switch (operation) {
            case RENEW, RELEASE -> kind == ErrorKind.LOST;
            case FORWARD -> kind == ErrorKind.NO_OWNER || kind == ErrorKind.OWNER_UNAVAILABLE
                    || kind == ErrorKind.OWNER_REJECTED || kind == ErrorKind.OWNER_TIMEOUT
                    || kind == ErrorKind.REPLY_TOO_LARGE;
            case ACQUIRE, OWNER, LIST, REVOKE -> false;
        };
    }

    private static LeaseView view(WireFields fields) {
        return new LeaseView(new LeaseKey(fields.key), new HolderId(fields.holder),
                Optional.ofNullable(fields.incarnation).map(Incarnation::new), fence(fields),
                fields.has(WireFields.TENURE) ? Optional.of(tenureFence(fields)) : Optional.empty(),
                Timestamps.parse(WireFields.required(fields.acquiredAt, Fields.ACQUIRED_AT)),
                Timestamps.parse(WireFields.required(fields.expiresAt, Fields.EXPIRES_AT)),
                new LeaseTtl(fields.required(WireFields.TTL)),
                Optional.ofNullable(fields.account).map(Account::new));
    }

    private static Fence fence(WireFields fields) {
        long revision = fields.required(WireFields.REVISION);
        if (revision < 1) {
            throw new InvalidLeaseInput("revision " + revision + " is below 1");
        }
        return new Fence(revision);
    }

    private static Fence tenureFence(WireFields fields) {
        long tenure = fields.required(WireFields.TENURE);
        if (tenure < 1) {
            throw new InvalidLeaseInput("tenure " + tenure + " is below 1");
        }
        return new Fence(tenure);
    }

    private static Fence revokedFence(WireFields fields) {
        long revision = fields.required(WireFields.REVOKED_REVISION);
        if (revision < 1) {
            throw new InvalidLeaseInput("revoked_revision " + revision + " is below 1");
        }
        return new Fence(revision);
    }

    private static String sentence(WireFields fields) {
        return fields.error == null ? "" : fields.error;
    }
}
