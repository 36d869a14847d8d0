package io.dagnats.leases.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.dagnats.leases.domain.InvalidLeaseInput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The fields of one request or reply body as read, before any operation's
 * rules: every field of the contract with the type the contract gives it.
 * Mutable and short-lived, so the service's decode allocates no more than the
 * strings it holds and the typed request built from it.
 *
 * <p>A request may hold only the request table's fields (those of every
 * subject, list and revoke included): any other is
 * {@code invalid}. A reply may hold fields this side does not know (a newer
 * dagnats may add some): they are skipped.
 */
final class WireFields implements FlatJson.FieldReader {

    static final int TTL = 1;
    static final int REVISION = 2;
    static final int TIMEOUT = 4;
    static final int PAGE_SIZE = 8;
    static final int REVOKED_REVISION = 16;
    static final int TENURE = 32;
    static final int MEMBER_TENURE = SuccessorAndAttachmentFields.MEMBER_TENURE;
    static final int TO_MEMBER_TENURE = SuccessorAndAttachmentFields.TO_MEMBER_TENURE;

    private final boolean request;
    /** The operation a request is for (its fields depend on it only for {@code account}); null for a reply. */
    private final Operation operation;

    String key;
    String holder;
    String incarnation;
    String payload;
    long ttlMillis;
    long revision;
    long timeoutMillis;
    String prefix;
    long pageSize;
    String cursor;
    String reason;
    String account;
    String by;
    /** The fields that name a successor or a member lease (ADR-042, ADR-043). */
    final SuccessorAndAttachmentFields linked;
    String attachedTo;
    private int present;

    String acquiredAt;
    String expiresAt;
    String error;
    String kind;
    Boolean granted;
    Boolean held;
    Boolean revoked;
    Boolean handedOver;
    /** A candidates reply's candidates; null when the reply has none. */
    List<Candidate> candidates;
    long revokedRevision;
    long tenure;
    String nextCursor;
    /** A list reply's leases, each read as reply fields; null when the reply has no {@code leases}. */
    List<WireFields> leases;

    private WireFields(boolean request, Operation operation) {
        this.request = request;
        this.operation = operation;
        this.linked = new SuccessorAndAttachmentFields(request, operation);
    }

    /**
     * The fields of a request for {@code operation}: the table's, but {@code account} only on an
     * operation that takes one ({@link Operation#takesAccount()}); on the others it is an unknown
     * field, as every field outside the table is.
     *
     * @throws InvalidLeaseInput with a sentence naming what is wrong
     */
    static WireFields request(byte[] body, Operation operation) {
        WireFields fields = new WireFields(true, Objects.requireNonNull(operation, "operation"));
        FlatJson.read(body, "the request body", fields);
        return fields;
    }

    /** Empty reply fields, for a reader that reads them field by field (a lease of a list reply). */
    static WireFields reply() {
        return new WireFields(false, null);
    }

    /** @throws InvalidLeaseInput with a sentence naming what is wrong */
    static WireFields reply(byte[] body) {
        WireFields fields = new WireFields(false, null);
        FlatJson.read(body, "the reply", fields);
        return fields;
    }

    @Override
    public void field(String name, JsonToken value, JsonParser parser) throws IOException {
        switch (name) {
            case Fields.KEY -> key = FlatJson.string(parser, value, name);
            case Fields.HOLDER -> holder = FlatJson.string(parser, value, name);
            case Fields.INCARNATION -> incarnation = FlatJson.string(parser, value, name);
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
            case Fields.PREFIX -> prefix = FlatJson.string(parser, value, name);
            case Fields.PAGE_SIZE -> {
                pageSize = FlatJson.integer(parser, value, name);
                present |= PAGE_SIZE;
            }
            case Fields.CURSOR -> cursor = FlatJson.string(parser, value, name);
            case Fields.REASON -> reason = FlatJson.string(parser, value, name);
            case Fields.BY -> by = FlatJson.string(parser, value, name);
            case Fields.MEMBER, Fields.MEMBER_TENURE, Fields.VALUE, Fields.TO_MEMBER, Fields.TO_MEMBER_TENURE ->
                    linked.attachment(name, value, parser);
            case Fields.TO_HOLDER, Fields.TO_INCARNATION -> linked.successor(name, value, parser);
            case Fields.ACCOUNT -> {
                if (request && !operation.takesAccount()) {
                    // Accepted and ignored, it would let a caller that meant another account act in its own.
                    throw new InvalidLeaseInput(FlatJson.unknownField(name).getMessage() + " on "
                            + operation.endpointName() + ": only owner and revoke take an account, in identity mode");
                }
                account = FlatJson.string(parser, value, name);
            }
            default -> {
                if (request) {
                    throw FlatJson.unknownField(name);
                }
                replyField(name, value, parser);
            }
        }
    }

    private void replyField(String name, JsonToken value, JsonParser parser) throws IOException {
        switch (name) {
            case Fields.ACQUIRED_AT -> acquiredAt = FlatJson.string(parser, value, name);
            case Fields.EXPIRES_AT -> expiresAt = FlatJson.string(parser, value, name);
            case Fields.ERROR -> error = FlatJson.string(parser, value, name);
            case Fields.KIND -> kind = FlatJson.string(parser, value, name);
            case Fields.GRANTED -> granted = FlatJson.bool(value, name);
            case Fields.HELD -> held = FlatJson.bool(value, name);
            case Fields.REVOKED -> revoked = FlatJson.bool(value, name);
            case Fields.REVOKED_REVISION -> {
                revokedRevision = FlatJson.integer(parser, value, name);
                present |= REVOKED_REVISION;
            }
            case Fields.TENURE -> {
                tenure = FlatJson.integer(parser, value, name);
                present |= TENURE;
            }
            case Fields.ATTACHED_TO -> attachedTo = FlatJson.string(parser, value, name);
            case Fields.NEXT_CURSOR -> nextCursor = FlatJson.string(parser, value, name);
            case Fields.LEASES -> leases = leases(parser, value);
            case Fields.HANDED_OVER -> handedOver = FlatJson.bool(value, name);
            case Fields.CANDIDATES -> candidates = candidates(parser, value);
            default -> parser.skipChildren();
        }
    }

    private static List<WireFields> leases(JsonParser parser, JsonToken value) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            throw new InvalidLeaseInput(Fields.LEASES + " must be an array of lease views");
        }
        List<WireFields> leases = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            WireFields lease = reply();
            FlatJson.readObject(parser, "a lease in " + Fields.LEASES, lease);
            leases.add(lease);
        }
        return leases;
    }

    private static List<Candidate> candidates(JsonParser parser, JsonToken value) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            throw new InvalidLeaseInput(Fields.CANDIDATES + " must be an array of candidates");
        }
        List<Candidate> candidates = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            candidates.add(Candidate.read(parser));
        }
        return candidates;
    }

    boolean has(int field) {
        return ((present | linked.present) & field) != 0;
    }

    /** @throws InvalidLeaseInput naming the field when it is absent */
    long required(int field) {
        if (!has(field)) {
            throw new InvalidLeaseInput(name(field) + " is required");
        }
        return switch (field) {
            case TTL -> ttlMillis;
            case REVISION -> revision;
            case PAGE_SIZE -> pageSize;
            case REVOKED_REVISION -> revokedRevision;
            case TENURE -> tenure;
            case MEMBER_TENURE -> linked.memberTenure;
            case TO_MEMBER_TENURE -> linked.toMemberTenure;
            default -> timeoutMillis;
        };
    }

    private static String name(int field) {
        return switch (field) {
            case TTL -> Fields.TTL_MS;
            case REVISION -> Fields.REVISION;
            case PAGE_SIZE -> Fields.PAGE_SIZE;
            case REVOKED_REVISION -> Fields.REVOKED_REVISION;
            case TENURE -> Fields.TENURE;
            case MEMBER_TENURE -> Fields.MEMBER_TENURE;
            case TO_MEMBER_TENURE -> Fields.TO_MEMBER_TENURE;
            default -> Fields.TIMEOUT_MS;
        };
    }
}
