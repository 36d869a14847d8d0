package io.dagnats.leases.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Release;
import io.dagnats.leases.domain.Revocation;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Reply bodies: encoded by the service (every reply is JSON, errors included),
 * decoded by a client into {@link Answers} or an {@link DagnatsException} (the replies of
 * ADR-042 and ADR-043's operations by {@link AttachedAndHandoverReplies}).
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
        return JsonObjects.bytes(generator -> {
            generator.writeBooleanField(Fields.GRANTED, granted);
            leaseView(generator, lease);
        });
    }

    /** An owner answer: the lease view without {@code granted}, or {@code held: false}. */
    public static byte[] owner(KeyState state) {
        if (state instanceof KeyState.Held held) {
            byte[] plain = LeaseViewBytes.write(null, held.lease());
            return plain != null ? plain : JsonObjects.bytes(generator -> leaseView(generator, held.lease()));
        }
        return JsonObjects.bytes(generator -> {
            generator.writeBooleanField(Fields.HELD, false);
            generator.writeStringField(Fields.KEY, state.key().value());
        });
    }

    public static byte[] released(Release.Released released) {
        return JsonObjects.bytes(generator -> {
            generator.writeBooleanField(Fields.RELEASED, true);
            generator.writeStringField(Fields.KEY, released.key().value());
            generator.writeStringField(Fields.HOLDER, released.holder().value());
            JsonObjects.writeFence(generator, Fields.REVISION, released.revision());
        });
    }

    /**
     * A list answer: the leases of one page, each the lease view without {@code granted},
     * and {@code next_cursor} when there may be more.
     */
    public static byte[] list(List<Lease> leases, Optional<String> nextCursor) {
        return JsonObjects.bytes(generator -> {
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
            return JsonObjects.bytes(generator -> {
                generator.writeBooleanField(Fields.REVOKED, true);
                generator.writeStringField(Fields.KEY, revoked.key().value());
                generator.writeStringField(Fields.HOLDER, revoked.holder().value());
                JsonObjects.writeFence(generator, Fields.REVISION, revoked.revision());
                JsonObjects.writeFence(generator, Fields.REVOKED_REVISION, revoked.revokedRevision());
            });
        }
        if (revocation instanceof Revocation.NotCurrent notCurrent) {
            return JsonObjects.bytes(generator -> {
                generator.writeBooleanField(Fields.REVOKED, false);
                leaseView(generator, notCurrent.lease());
            });
        }
        return JsonObjects.bytes(generator -> {
            generator.writeBooleanField(Fields.REVOKED, false);
            generator.writeBooleanField(Fields.HELD, false);
            generator.writeStringField(Fields.KEY, revocation.key().value());
        });
    }

    /**
     * A handover answer (ADR-042): {@code handed_over: true} with the successor's new lease as a
     * granted acquire shows it (without {@code granted}); the successor owns it only after its own renew.
     */
    public static byte[] handedOver(Lease successors) {
        return JsonObjects.bytes(generator -> {
            generator.writeBooleanField(Fields.HANDED_OVER, true);
            leaseView(generator, successors);
        });
    }

    /** A candidates answer: the key and every well-formed answer gathered, sorted by holder id, then incarnation. */
    public static byte[] candidates(LeaseKey key, List<Candidate> candidates) {
        List<Candidate> sorted = new java.util.ArrayList<>(candidates);
        sorted.sort(java.util.Comparator.comparing((Candidate candidate) -> candidate.holder().value())
                .thenComparing(candidate -> candidate.incarnation().value()));
        return JsonObjects.bytes(generator -> {
            generator.writeStringField(Fields.KEY, key.value());
            generator.writeArrayFieldStart(Fields.CANDIDATES);
            for (Candidate candidate : sorted) {
                generator.writeStartObject();
                candidate.write(generator);
                generator.writeEndObject();
            }
            generator.writeEndArray();
        });
    }

    /** A forward answer: the owner that answered, the fence it was sent, and its reply in base64. */
    public static byte[] forwarded(Lease owner, byte[] reply) {
        return JsonObjects.bytes(generator -> {
            generator.writeStringField(Fields.KEY, owner.key().value());
            generator.writeStringField(Fields.HOLDER, owner.holder().value());
            if (owner.incarnation().isPresent()) {
                generator.writeStringField(Fields.INCARNATION, owner.incarnation().get().value());
            }
            JsonObjects.writeFence(generator, Fields.REVISION, owner.revision());
            generator.writeFieldName(Fields.PAYLOAD);
            generator.writeBinary(reply);
        });
    }

    /** A forward error naming the owner last tried. */
    public static byte[] forwardError(ErrorKind kind, String sentence, Lease lastTried) {
        return JsonObjects.bytes(generator -> {
            generator.writeStringField(Fields.ERROR, sentence);
            generator.writeStringField(Fields.KIND, Kinds.wireName(kind));
            generator.writeStringField(Fields.HOLDER, lastTried.holder().value());
            if (lastTried.incarnation().isPresent()) {
                generator.writeStringField(Fields.INCARNATION, lastTried.incarnation().get().value());
            }
            JsonObjects.writeFence(generator, Fields.REVISION, lastTried.revision());
        });
    }

    public static byte[] error(ErrorKind kind, String sentence) {
        return JsonObjects.bytes(generator -> {
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
        JsonObjects.writeFence(generator, Fields.REVISION, lease.revision());
        JsonObjects.writeFence(generator, Fields.TENURE, lease.tenure());
        generator.writeStringField(Fields.ACQUIRED_AT, Timestamps.format(lease.acquiredAt()));
        generator.writeStringField(Fields.EXPIRES_AT, Timestamps.format(lease.expiresAt()));
        generator.writeNumberField(Fields.TTL_MS, lease.ttl().millis());
        if (lease.attachment().isPresent()) {
            // ADR-043: expires_at and ttl_ms above are the member lease's, which keeps the key.
            Attachment attachment = lease.attachment().get();
            generator.writeStringField(Fields.ATTACHED_TO, attachment.member().value());
            JsonObjects.writeFence(generator, Fields.MEMBER_TENURE, attachment.memberTenure());
            if (attachment.value().isPresent()) {
                generator.writeStringField(Fields.VALUE, attachment.value().get());
            }
        }
    }

    // ---- a client's side: decoding the lease operations' replies (the rules live in AnswerDecoder;
    // attach, detach, move, handover and candidates: AttachedAndHandoverReplies) ----

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    public static Answers.Acquire decodeAcquire(byte[] body) {
        return AnswerDecoder.decodeAcquire(body);
    }

    /** @throws DagnatsException for an error reply but {@code lost}, or one that breaks the contract */
    public static Answers.Renew decodeRenew(byte[] body) {
        return AnswerDecoder.decodeRenew(body);
    }

    /** @throws DagnatsException for an error reply but {@code lost}, or one that breaks the contract */
    public static Answers.Release decodeRelease(byte[] body) {
        return AnswerDecoder.decodeRelease(body);
    }

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    public static Answers.Owner decodeOwner(byte[] body) {
        return AnswerDecoder.decodeOwner(body);
    }

    /** @throws DagnatsException for an error reply that is no forward outcome, or one that breaks the contract */
    public static Answers.Forward decodeForward(byte[] body) {
        return AnswerDecoder.decodeForward(body);
    }

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    public static Answers.Listing decodeList(byte[] body) {
        return AnswerDecoder.decodeList(body);
    }

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    public static Answers.Revoke decodeRevoke(byte[] body) {
        return AnswerDecoder.decodeRevoke(body);
    }
}
