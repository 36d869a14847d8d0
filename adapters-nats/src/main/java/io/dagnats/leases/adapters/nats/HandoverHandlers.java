package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.HandOverLease;
import io.dagnats.leases.application.LeaseTelemetry.Facts;
import io.dagnats.leases.domain.Caller;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Handover;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Lost;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Request;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * handover and candidates (ADR-042). A handover is the owner's own call, in its own namespace, bound
 * to its principal as a renew is (ADR-036); the candidates of a key are readable by whoever may look
 * at its owner.
 */
final class HandoverHandlers {

    private final HandOverLease handover;
    private final CandidateGathering candidates;

    HandoverHandlers(HandOverLease handover, CandidateGathering candidates) {
        this.handover = Objects.requireNonNull(handover, "handover");
        this.candidates = Objects.requireNonNull(candidates, "candidates");
    }

    CompletionStage<Answer> handover(Request.Handover request, Caller caller) {
        HandOverLease.Command command = new HandOverLease.Command(caller.key(request.key().value()),
                caller.claimant(request.claimant()), request.revision(), request.successor(), request.ttl());
        return handover.execute(command).thenApply(outcome -> {
            if (outcome instanceof Handover.HandedOver handed) {
                return Answer.of(Replies.handedOver(handed.lease()), Facts.Result.HANDED_OVER, handed.lease());
            }
            return Answer.lost((Lost) outcome);
        });
    }

    CompletionStage<Answer> candidates(Request.Candidates request, Caller caller) {
        Optional<LeaseKey> named = caller.named(request.key().value(), request.account());
        if (named.isEmpty()) {
            return CompletableFuture.completedFuture(Answer.failed(ErrorKind.FORBIDDEN,
                    "identity mode: only an operator account may look at another account's candidates"));
        }
        LeaseKey key = named.get();
        return candidates.gather(key, request.window()).thenApply(gathered ->
                new Answer(Replies.candidates(key, gathered), new Facts.Listed(gathered.size())));
    }
}
