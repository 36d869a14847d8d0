package io.dagnats.leases.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.RevokeReason;
import io.dagnats.leases.domain.Revoker;
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
 * 2^63-1), and the fields an operation needs must be present and valid. The one
 * exception is {@code account}, a field only of owner and revoke
 * ({@link Operation#takesAccount()}): on the others it is unknown.
 */
public final class Requests {

    private Requests() {
    }

    /**
     * Decodes a request about one key: every operation but {@link Operation#LIST}, whose
     * request is no {@link Request} ({@link #list}).
     *
     * @throws InvalidLeaseInput with a sentence naming what is wrong
     * @throws IllegalArgumentException for {@link Operation#LIST}
     */
    public static Request decode(Operation operation, byte[] body) {
        return switch (operation) {
            case ACQUIRE -> acquire(body);
            case RENEW -> renew(body);
            case RELEASE -> release(body);
            case OWNER -> owner(body);
            case FORWARD -> forward(body);
            case REVOKE -> revoke(body);
            case HANDOVER -> handover(body);
            case CANDIDATES -> candidates(body);
            case ATTACH -> attach(body);
            case DETACH -> detach(body);
            case MOVE -> move(body);
            case LIST -> throw new IllegalArgumentException("a list request is about no key: decode it with list()");
        };
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Acquire acquire(byte[] body) {
        WireFields fields = WireFields.request(body, Operation.ACQUIRE);
        return new Request.Acquire(new LeaseKey(fields.key), new HolderId(fields.holder), incarnation(fields),
                new LeaseTtl(fields.required(WireFields.TTL)));
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Renew renew(byte[] body) {
        WireFields fields = WireFields.request(body, Operation.RENEW);
        return new Request.Renew(new LeaseKey(fields.key), new HolderId(fields.holder), incarnation(fields),
                revision(fields),
                fields.has(WireFields.TTL) ? Optional.of(new LeaseTtl(fields.ttlMillis)) : Optional.empty());
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Release release(byte[] body) {
        WireFields fields = WireFields.request(body, Operation.RELEASE);
        return new Request.Release(new LeaseKey(fields.key), new HolderId(fields.holder), incarnation(fields),
                revision(fields));
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Attach attach(byte[] body) {
        WireFields fields = WireFields.request(body, Operation.ATTACH);
        return new Request.Attach(new LeaseKey(fields.key), new HolderId(fields.holder), incarnation(fields),
                new LeaseKey(WireFields.required(fields.member, Fields.MEMBER)),
                positive(fields, WireFields.MEMBER_TENURE, Fields.MEMBER_TENURE),
                Optional.ofNullable(fields.storedValue));
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Detach detach(byte[] body) {
        WireFields fields = WireFields.request(body, Operation.DETACH);
        return new Request.Detach(new LeaseKey(fields.key), new HolderId(fields.holder), incarnation(fields),
                revision(fields));
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Move move(byte[] body) {
        WireFields fields = WireFields.request(body, Operation.MOVE);
        return new Request.Move(new LeaseKey(fields.key), new HolderId(fields.holder), incarnation(fields),
                revision(fields), new HolderId(WireFields.required(fields.toHolder, Fields.TO_HOLDER)),
                Optional.ofNullable(fields.toIncarnation).map(Incarnation::new),
                new LeaseKey(WireFields.required(fields.toMember, Fields.TO_MEMBER)),
                positive(fields, WireFields.TO_MEMBER_TENURE, Fields.TO_MEMBER_TENURE));
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Owner owner(byte[] body) {
        WireFields fields = WireFields.request(body, Operation.OWNER);
        return new Request.Owner(new LeaseKey(fields.key), Optional.ofNullable(fields.account).map(Account::new));
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Forward forward(byte[] body) {
        WireFields fields = WireFields.request(body, Operation.FORWARD);
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
        Duration timeout = fields.has(WireFields.TIMEOUT)
                ? Duration.ofMillis(fields.timeoutMillis)
                : Request.Forward.DEFAULT_TIMEOUT;
        return new Request.Forward(key, payload, timeout);
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Revoke revoke(byte[] body) {
        WireFields fields = WireFields.request(body, Operation.REVOKE);
        LeaseKey key = new LeaseKey(fields.key);
        RevokeReason reason = new RevokeReason(fields.reason);
        return new Request.Revoke(key, reason,
                fields.has(WireFields.REVISION) ? Optional.of(revision(fields)) : Optional.empty(),
                Optional.ofNullable(fields.account).map(Account::new), Optional.ofNullable(fields.by).map(Revoker::new));
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Handover handover(byte[] body) {
        WireFields fields = WireFields.request(body, Operation.HANDOVER);
        LeaseKey key = new LeaseKey(fields.key);
        HolderId holder = new HolderId(fields.holder);
        Optional<Incarnation> incarnation = incarnation(fields);
        Fence revision = revision(fields);
        HolderId successor = new HolderId(WireFields.required(fields.toHolder, Fields.TO_HOLDER));
        Incarnation successorIncarnation = new Incarnation(
                WireFields.required(fields.toIncarnation, Fields.TO_INCARNATION));
        return new Request.Handover(key, holder, incarnation, revision,
                Claimant.of(successor, successorIncarnation),
                fields.has(WireFields.TTL) ? Optional.of(new LeaseTtl(fields.ttlMillis)) : Optional.empty());
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static Request.Candidates candidates(byte[] body) {
        WireFields fields = WireFields.request(body, Operation.CANDIDATES);
        LeaseKey key = new LeaseKey(fields.key);
        Duration window = fields.has(WireFields.TIMEOUT)
                ? Duration.ofMillis(fields.timeoutMillis)
                : Request.Candidates.DEFAULT_WINDOW;
        return new Request.Candidates(key, window, Optional.ofNullable(fields.account).map(Account::new));
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    public static ListRequest list(byte[] body) {
        WireFields fields = WireFields.request(body, Operation.LIST);
        KeyPrefix prefix = fields.prefix == null ? KeyPrefix.ALL : new KeyPrefix(fields.prefix);
        int pageSize = ListRequest.DEFAULT_PAGE_SIZE;
        if (fields.has(WireFields.PAGE_SIZE)) {
            if (fields.pageSize < 1 || fields.pageSize > ListRequest.MAX_PAGE_SIZE) {
                throw new InvalidLeaseInput("page_size must be from 1 to " + ListRequest.MAX_PAGE_SIZE);
            }
            pageSize = (int) fields.pageSize;
        }
        return new ListRequest(prefix, pageSize, Optional.ofNullable(fields.cursor));
    }

    /** The body a client sends for {@code request}, on {@link Operation#LIST}'s subject. */
    public static byte[] encode(ListRequest request) {
        return JsonObjects.bytes(generator -> {
            if (!request.prefix().value().isEmpty()) {
                generator.writeStringField(Fields.PREFIX, request.prefix().value());
            }
            generator.writeNumberField(Fields.PAGE_SIZE, request.pageSize());
            if (request.cursor().isPresent()) {
                generator.writeStringField(Fields.CURSOR, request.cursor().get());
            }
        });
    }

    /** The body a client sends for {@code request}, on {@code request.operation().subject()}. */
    public static byte[] encode(Request request) {
        return JsonObjects.bytes(generator -> {
            generator.writeStringField(Fields.KEY, request.key().value());
            if (request instanceof Request.Acquire acquire) {
                writeHolder(generator, acquire);
                generator.writeNumberField(Fields.TTL_MS, acquire.ttl().millis());
            } else if (request instanceof Request.Renew renew) {
                writeHolder(generator, renew);
                JsonObjects.writeFence(generator, Fields.REVISION, renew.revision());
                if (renew.ttl().isPresent()) {
                    generator.writeNumberField(Fields.TTL_MS, renew.ttl().get().millis());
                }
            } else if (request instanceof Request.Release release) {
                writeHolder(generator, release);
                JsonObjects.writeFence(generator, Fields.REVISION, release.revision());
            } else if (request instanceof Request.Handover handover) {
                writeHolder(generator, handover);
                JsonObjects.writeFence(generator, Fields.REVISION, handover.revision());
                generator.writeStringField(Fields.TO_HOLDER, handover.successor().holder().value());
                generator.writeStringField(Fields.TO_INCARNATION, handover.successor().incarnation().get().value());
                if (handover.ttl().isPresent()) {
                    generator.writeNumberField(Fields.TTL_MS, handover.ttl().get().millis());
                }
            } else if (request instanceof Request.Candidates candidates) {
                if (candidates.account().isPresent()) {
                    generator.writeStringField(Fields.ACCOUNT, candidates.account().get().value());
                }
                generator.writeNumberField(Fields.TIMEOUT_MS, candidates.window().toMillis());
            } else if (request instanceof Request.Attach attach) {
                writeHolder(generator, attach);
                generator.writeStringField(Fields.MEMBER, attach.member().value());
                JsonObjects.writeFence(generator, Fields.MEMBER_TENURE, attach.memberTenure());
                if (attach.value().isPresent()) {
                    generator.writeStringField(Fields.VALUE, attach.value().get());
                }
            } else if (request instanceof Request.Detach detach) {
                writeHolder(generator, detach);
                JsonObjects.writeFence(generator, Fields.REVISION, detach.revision());
            } else if (request instanceof Request.Move move) {
                writeHolder(generator, move);
                JsonObjects.writeFence(generator, Fields.REVISION, move.revision());
                generator.writeStringField(Fields.TO_HOLDER, move.toHolder().value());
                if (move.toIncarnation().isPresent()) {
                    generator.writeStringField(Fields.TO_INCARNATION, move.toIncarnation().get().value());
                }
                generator.writeStringField(Fields.TO_MEMBER, move.toMember().value());
                JsonObjects.writeFence(generator, Fields.TO_MEMBER_TENURE, move.toMemberTenure());
            } else if (request instanceof Request.Forward forward) {
                writeForward(generator, forward);
            } else if (request instanceof Request.Owner owner && owner.account().isPresent()) {
                generator.writeStringField(Fields.ACCOUNT, owner.account().get().value());
            } else if (request instanceof Request.Revoke revoke) {
                generator.writeStringField(Fields.REASON, revoke.reason().value());
                if (revoke.account().isPresent()) {
                    generator.writeStringField(Fields.ACCOUNT, revoke.account().get().value());
                }
                if (revoke.revision().isPresent()) {
                    JsonObjects.writeFence(generator, Fields.REVISION, revoke.revision().get());
                }
                if (revoke.by().isPresent()) {
                    generator.writeStringField(Fields.BY, revoke.by().get().value());
                }
            }
        });
    }

    private static void writeHolder(JsonGenerator generator, Request.ByHolder request) throws IOException {
        generator.writeStringField(Fields.HOLDER, request.holder().value());
        if (request.incarnation().isPresent()) {
            generator.writeStringField(Fields.INCARNATION, request.incarnation().get().value());
        }
    }

    /** Optional on acquire, renew, release and handover; accepted and ignored elsewhere, like every field of the table. */
    private static Optional<Incarnation> incarnation(WireFields fields) {
        return fields.incarnation == null ? Optional.empty() : Optional.of(new Incarnation(fields.incarnation));
    }

    private static void writeForward(JsonGenerator generator, Request.Forward forward) throws IOException {
        generator.writeFieldName(Fields.PAYLOAD);
        generator.writeBinary(forward.payload());
        generator.writeNumberField(Fields.TIMEOUT_MS, forward.timeout().toMillis());
    }

    /** A fence a request names (a revision, a member tenure): a JSON integer of 1 or more. */
    private static Fence positive(WireFields fields, int field, String name) {
        long value = fields.required(field);
        if (value < 1) {
            throw new InvalidLeaseInput(name + " must be 1 or more");
        }
        return new Fence(value);
    }

    /** A request's revision is a signed JSON integer: below 1 is not a fence it may send. */
    private static Fence revision(WireFields fields) {
        return positive(fields, WireFields.REVISION, Fields.REVISION);
    }
}
