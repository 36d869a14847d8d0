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
                new LeaseKey(FlatJson.required(fields.linked.member, Fields.MEMBER)),
                positive(fields, WireFields.MEMBER_TENURE, Fields.MEMBER_TENURE),
                Optional.ofNullable(fields.linked.storedValue));
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
                revision(fields), new HolderId(FlatJson.required(fields.linked.toHolder, Fields.TO_HOLDER)),
                Optional.ofNullable(fields.linked.toIncarnation).map(Incarnation::new),
                new LeaseKey(FlatJson.required(fields.linked.toMember, Fields.TO_MEMBER)),
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
        HolderId successor = new HolderId(FlatJson.required(fields.linked.toHolder, Fields.TO_HOLDER));
        Incarnation successorIncarnation = new Incarnation(
                FlatJson.required(fields.linked.toIncarnation, Fields.TO_INCARNATION));
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

    /** The JSON body of a list request (the CLI's and the holder's). */
    public static byte[] encode(ListRequest request) {
        return RequestEncoding.encode(request);
    }

    /** The JSON body of {@code request}, as its endpoint decodes it. */
    public static byte[] encode(Request request) {
        return RequestEncoding.encode(request);
    }


    /** Optional on acquire, renew, release and handover; accepted and ignored elsewhere, like every field of the table. */
    private static Optional<Incarnation> incarnation(WireFields fields) {
        return fields.incarnation == null ? Optional.empty() : Optional.of(new Incarnation(fields.incarnation));
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
