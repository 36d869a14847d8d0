package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.application.SuccessorCheck;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.HandoverCheck;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.Candidate;
import io.dagnats.leases.protocol.CandidateCheck;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.Replies;
import io.nats.client.Connection;
import io.nats.client.JetStreamStatusException;
import io.nats.client.Message;
import io.nats.client.NUID;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;

/**
 * The targeted check before a handover (ADR-042): one core request on
 * {@link LeaseSubjects#candidate} naming the incarnation and a fresh check id
 * ({@link CandidateCheck}). Only an answer that is a candidate object naming that key, holder and
 * incarnation in state {@code waiting} is a yes; no responders, no answer in time, a
 * {@link LeaseHeaders#REJECT}, an empty or malformed body, or one naming anything else is a no, with
 * a sentence saying which. A yes's grant (ADR-046) is one publish on the same subject, the check id in
 * {@link LeaseHeaders#CHECK} and the handover's reply as the body; the handover's write carries the
 * same id (ADR-047).
 */
public final class NatsSuccessorCheck implements SuccessorCheck {

    private final Connection connection;
    private final LeaseTelemetry telemetry;
    private final RequestDeadlines deadlines = new RequestDeadlines(Duration.ofMillis(100));

    /** @param connection must report no responders, as for {@link NatsOwnerInbox} */
    public NatsSuccessorCheck(Connection connection, LeaseTelemetry telemetry) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
        if (!connection.getOptions().isReportNoResponders()) {
            throw new IllegalArgumentException("the successor check needs a connection built with reportNoResponders()");
        }
    }

    @Override
    public CompletionStage<Reply> ask(LeaseKey key, Claimant successor, Duration timeout) {
        String incarnation = successor.incarnation().orElseThrow(
                () -> new IllegalArgumentException("a handover names the successor's incarnation")).value();
        String subject = LeaseSubjects.route(key, LeaseSubjects.candidate(successor.holder(), key));
        Headers headers = new Headers();
        telemetry.outgoingHeaders().forEach(headers::put);
        HandoverCheck check = new HandoverCheck(NUID.nextGlobal());
        CompletableFuture<Message> reply;
        try {
            reply = connection.requestWithTimeout(NatsMessage.builder()
                    .subject(subject)
                    .headers(headers)
                    .data(new CandidateCheck(incarnation, Optional.of(check.value())).encode())
                    .build(), timeout);
        } catch (RuntimeException closed) {
            return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.INTERNAL,
                    "could not ask " + successor + " whether it waits: " + closed.getMessage(), closed));
        }
        return deadlines.watch(reply, timeout).handle((message, failure) -> {
            if (failure == null) {
                if (message.isStatusMessage() && message.getStatus().getCode() == 503) {
                    return noResponders(successor);
                }
                return judge(key, successor, message, check, granting(subject, check));
            }
            Throwable cause = Stages.cause(failure);
            if (cause instanceof JetStreamStatusException status && status.getStatus().getCode() == 503) {
                return noResponders(successor);
            }
            if (cause instanceof TimeoutException || cause instanceof CancellationException) {
                return new Reply.NotWaiting(successor + " did not answer within " + timeout.toMillis() + " ms");
            }
            throw new LeaseFailure(ErrorKind.INTERNAL, "asking " + successor + " failed: " + cause.getMessage(), cause);
        });
    }

    private static Reply noResponders(Claimant successor) {
        return new Reply.NotWaiting("nobody listens for " + successor.holder() + " (no responders)");
    }

    /** The grant answering the yes to {@code check}: published, never awaited; a lost one leaves the successor its renew. */
    private Grant granting(String subject, HandoverCheck check) {
        return written -> {
            try {
                connection.publish(subject, new Headers().put(LeaseHeaders.CHECK, check.value()),
                        Replies.handedOver(written));
            } catch (RuntimeException away) {
                // NATS away: the successor learns from the handed-over event, and renews to own.
            }
        };
    }

    /** Only a waiting candidate naming exactly what was asked is a yes, to {@code check}; its grant is {@code grant}. */
    static Reply judge(LeaseKey key, Claimant successor, Message message, HandoverCheck check, Grant grant) {
        if (message.hasHeaders() && message.getHeaders().getFirst(LeaseHeaders.REJECT) != null) {
            return new Reply.NotWaiting(successor + " refused: it does not wait for " + key + " under that incarnation");
        }
        Optional<Candidate> candidate = Candidate.decode(message.getData());
        if (candidate.isEmpty()) {
            return new Reply.NotWaiting(successor.holder() + " answered with no candidate object");
        }
        Candidate answered = candidate.get();
        if (!answered.key().value().equals(key.value()) || !answered.holder().equals(successor.holder())) {
            return new Reply.NotWaiting(successor.holder() + " answered for another key or holder");
        }
        if (!successor.incarnation().equals(Optional.of(answered.incarnation()))) {
            return new Reply.NotWaiting(successor.holder() + " answered for incarnation " + answered.incarnation()
                    + ", not " + successor.incarnation().map(Object::toString).orElse(""));
        }
        if (answered.state() != Candidate.State.WAITING) {
            return new Reply.NotWaiting(successor + " is not waiting (state " + answered.state().wireName() + ")");
        }
        return new Reply.Waiting(check, grant);
    }
}
