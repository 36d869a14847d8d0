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

/** Writes requests as the JSON bodies {@link Requests} reads back: the encoding half of the wire format. */
final class RequestEncoding {

    private RequestEncoding() {
    }

    /** The body a client sends for {@code request}, on {@link Operation#LIST}'s subject. */
    static byte[] encode(ListRequest request) {
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
    static byte[] encode(Request request) {
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

    private static void writeForward(JsonGenerator generator, Request.Forward forward) throws IOException {
        generator.writeFieldName(Fields.PAYLOAD);
        generator.writeBinary(forward.payload());
        generator.writeNumberField(Fields.TIMEOUT_MS, forward.timeout().toMillis());
    }
}
