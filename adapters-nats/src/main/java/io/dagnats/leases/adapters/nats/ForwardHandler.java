package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.ForwardToOwner;
import io.dagnats.leases.application.LeaseTelemetry.Facts;
import io.dagnats.leases.domain.Caller;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Request;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;

/**
 * forward: hands the request to the use case, and says in one sentence what
 * became of it: delivered, nobody holds the key, or how the owner failed to
 * answer. A reply too large to send back is refused here, where its size is
 * first known.
 */
final class ForwardHandler {

    private final ForwardToOwner forward;
    private final LongSupplier maxPayload;

    /** @param maxPayload the server's max_payload, asked at each delivery: it may change on reconnect */
    ForwardHandler(ForwardToOwner forward, LongSupplier maxPayload) {
        this.forward = Objects.requireNonNull(forward, "forward");
        this.maxPayload = Objects.requireNonNull(maxPayload, "maxPayload");
    }

    /** The key is the caller's namespace's: another account's owner cannot be reached (ADR-036). */
    CompletionStage<Answer> forward(Request.Forward request, Caller caller) {
        return forward.execute(new ForwardToOwner.Command(caller.key(request.key().value()), request.payload(),
                        request.timeout()))
                .thenApply(outcome -> answer(outcome, maxPayload));
    }

    /** The reply for {@code outcome}; the size limit is asked only when there is a reply to measure. */
    static Answer answer(ForwardToOwner.Outcome outcome, LongSupplier maxPayload) {
        if (outcome instanceof ForwardToOwner.Outcome.Delivered delivered) {
            byte[] body = Replies.forwarded(delivered.owner(), delivered.reply());
            long limit = maxPayload.getAsLong();
            if (body.length > limit) {
                return Answer.forwardFailed(ErrorKind.REPLY_TOO_LARGE,
                        "the owner's reply is " + delivered.reply().length + " bytes; base64 in the reply JSON it is "
                                + body.length + " bytes, over the server's max_payload of " + limit,
                        delivered.owner());
            }
            return Answer.of(body, Facts.Result.DELIVERED, delivered.owner());
        }
        if (outcome instanceof ForwardToOwner.Outcome.NoOwner noOwner) {
            return Answer.failed(ErrorKind.NO_OWNER, "nobody holds " + noOwner.key(), noOwner.key());
        }
        if (outcome instanceof ForwardToOwner.Outcome.OwnerUnavailable unavailable) {
            return Answer.forwardFailed(ErrorKind.OWNER_UNAVAILABLE, "nobody listens on the inbox of "
                    + unavailable.lastTried().holder() + ", the owner of " + unavailable.lastTried().key(),
                    unavailable.lastTried());
        }
        if (outcome instanceof ForwardToOwner.Outcome.OwnerRejected rejected) {
            return Answer.forwardFailed(ErrorKind.OWNER_REJECTED, rejected.lastTried().holder()
                    + " rejected the request as stale: it is not acting as owner of " + rejected.lastTried().key()
                    + " under revision " + rejected.lastTried().revision(), rejected.lastTried());
        }
        ForwardToOwner.Outcome.OwnerTimeout timeout = (ForwardToOwner.Outcome.OwnerTimeout) outcome;
        return Answer.forwardFailed(ErrorKind.OWNER_TIMEOUT, timeout.lastTried().holder()
                + " did not answer in time; it may have processed the request", timeout.lastTried());
    }
}
