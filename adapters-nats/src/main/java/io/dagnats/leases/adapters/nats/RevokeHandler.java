package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseTelemetry.Facts;
import io.dagnats.leases.application.RevokeLease;
import io.dagnats.leases.domain.Caller;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Revocation;
import io.dagnats.leases.domain.Revoker;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Request;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * revoke: an operator frees a key over its holder's head. Each revoke that
 * freed a key is logged as one line naming the key, the holder, its fence and
 * the reason: it overrides a holder, so operators must be able to find it.
 */
final class RevokeHandler {

    private static final System.Logger LOG = System.getLogger(RevokeHandler.class.getName());

    private final RevokeLease revoke;

    RevokeHandler(RevokeLease revoke) {
        this.revoke = Objects.requireNonNull(revoke, "revoke");
    }

    /**
     * In identity mode only an operator may revoke, in the namespace the request names (its own
     * without one); anyone else is {@code forbidden} and nothing is read or written (ADR-036).
     */
    CompletionStage<Answer> revoke(Request.Revoke request, Caller caller) {
        if (!caller.mayRevoke()) {
            return CompletableFuture.completedFuture(Answer.failed(ErrorKind.FORBIDDEN,
                    "identity mode: only an operator account may revoke a lease"));
        }
        // An operator may name any account; the Optional is empty only for a member, refused above.
        LeaseKey key = caller.named(request.key().value(), request.account()).orElseThrow();
        Optional<Revoker> by = Revoker.named(caller, request.by());
        RevokeLease.Command command = new RevokeLease.Command(key, request.reason(), request.revision(), by);
        return revoke.execute(command).thenApply(revocation -> {
            byte[] body = Replies.revoked(revocation);
            if (revocation instanceof Revocation.Revoked revoked) {
                LOG.log(System.Logger.Level.INFO, "revoked lease " + revoked.key() + " of holder " + revoked.holder()
                        + " (fence " + revoked.revokedRevision() + ", tombstone " + revoked.revision() + ")"
                        + by.map(revoker -> " by " + revoker).orElse("") + ": " + request.reason());
                return new Answer(body, new Facts.Answered(
                        Facts.Result.REVOKED, revoked.key(), revoked.holder(), revoked.revokedRevision()));
            }
            if (revocation instanceof Revocation.NotCurrent notCurrent) {
                return Answer.of(body, Facts.Result.HELD, notCurrent.lease());
            }
            return new Answer(body, new Facts.Free(revocation.key()));
        });
    }
}
