package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.AttachedAndHandoverReplies;
import io.dagnats.leases.protocol.DagnatsException;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListingWalk;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.Operation;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Request;
import io.dagnats.leases.protocol.Requests;
import io.nats.client.JetStreamStatusException;
import io.nats.client.Message;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The lease subjects the CLI calls, over request/reply like any client, with
 * every way a call can fail turned into one {@link CliFailure} sentence.
 */
final class DagnatsCalls {

    private final NatsSession session;

    DagnatsCalls(NatsSession session) {
        this.session = session;
    }

    Answers.Owner owner(LeaseKey key) {
        return owner(key, Optional.empty());
    }

    /** @param account identity mode, an operator's look into another account's namespace */
    Answers.Owner owner(LeaseKey key, Optional<Account> account) {
        return call(Operation.OWNER.subject(), Requests.encode(new Request.Owner(key, account)), Replies::decodeOwner);
    }

    Answers.Listing list(ListRequest request) {
        return call(Operation.LIST.subject(), Requests.encode(request), Replies::decodeList);
    }

    /** Every held lease under {@code prefix}, sorted by key: the protocol's {@link ListingWalk}, page by page. */
    List<LeaseView> listAll(KeyPrefix prefix, int pageSize) {
        try {
            return ListingWalk.walk(this::list, prefix, pageSize);
        } catch (DagnatsException looping) {
            throw new CliFailure(looping.getMessage());
        }
    }

    /**
     * A service older than ADR-041 refuses {@code by} as an unknown field, writing nothing; the revoke
     * is then sent again without it, so a newer CLI still revokes there (naming nobody, as it did).
     */
    Answers.Revoke revoke(Request.Revoke request) {
        byte[] body = Requests.encode(request);
        try {
            return call(Operation.REVOKE.subject(), body, Replies::decodeRevoke);
        } catch (CliFailure refused) {
            if (request.by().isEmpty() || !refused.getMessage().contains(UNKNOWN_BY)) {
                throw refused;
            }
            Request.Revoke unnamed = new Request.Revoke(request.key(), request.reason(), request.revision(),
                    request.account());
            return call(Operation.REVOKE.subject(), Requests.encode(unnamed), Replies::decodeRevoke);
        }
    }

    /** What a service older than ADR-041 answers a revoke that names its revoker. */
    private static final String UNKNOWN_BY = "unknown field \"by\"";

    Answers.Candidates candidates(Request.Candidates request) {
        // dagnats answers once the window has closed: the usual wait comes on top of it.
        return call(Operation.CANDIDATES.subject(), Requests.encode(request), AttachedAndHandoverReplies::decodeCandidates,
                NatsSession.TIMEOUT.plus(request.window()));
    }

    /** Sends {@code body} to {@code subject} and decodes the reply. */
    <T> T call(String subject, byte[] body, Function<byte[], T> decode) {
        return call(subject, body, decode, NatsSession.TIMEOUT);
    }

    private <T> T call(String subject, byte[] body, Function<byte[], T> decode, Duration timeout) {
        CompletableFuture<Message> pending = session.connection().requestWithTimeout(subject, body, timeout);
        session.confirmPermitted();
        Message reply;
        try {
            reply = pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException failed) {
            // With reportNoResponders, jnats fails the request with the server's 503 status.
            if (failed.getCause() instanceof JetStreamStatusException status && status.getStatus().isNoResponders()) {
                throw new CliFailure("no dagnats service answered " + subject
                        + ": is dagnats running and connected to this NATS server?");
            }
            throw new CliFailure("no answer from dagnats to " + subject + ": " + failed.getCause().getMessage());
        } catch (TimeoutException | CancellationException noReply) {
            throw new CliFailure("dagnats did not answer " + subject + " within " + timeout.toSeconds() + " s");
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new CliFailure("interrupted while waiting for dagnats");
        }
        if (reply.isStatusMessage()) {
            throw new CliFailure("NATS answered " + subject + " with status " + reply.getStatus().getCode()
                    + " " + reply.getStatus().getMessage());
        }
        try {
            return decode.apply(reply.getData());
        } catch (DagnatsException refused) {
            throw new CliFailure("dagnats answered " + subject + " with " + refused.getMessage());
        }
    }
}
