package io.dagnats.leases.holder.internal.forward;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.ForwardHandler;
import io.dagnats.leases.holder.internal.ForwardRun;
import io.dagnats.leases.holder.internal.HolderTelemetry;
import io.dagnats.leases.holder.internal.Ownership;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * A holder's forward inbox ({@link LeaseSubjects#inboxes}): serves the requests
 * dagnats routes to this process as owner of a key, each on a handler thread of
 * its own, and answers with the protocol's stale reject to whatever the
 * owner-side rule refuses (not owner, a fence below the tenure, a token that is
 * no key). Its inboxes are its incarnation's own subjects, which no other process
 * under the same holder id receives: only the process the lease names can answer,
 * so its reject is proof of "not processed", and no responders proof it is gone. A request is judged as it arrives and again on its handler thread,
 * where admitting it and tracking the run are one step of its {@link Ownership}.
 */
public final class ForwardInbox {

    /**
     * Logs under the holder's name, as it always has, so users' logging settings still apply;
     * spelt out, so the inbox does not depend back on the holder that owns it.
     */
    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.LeaseHolder");

    private final Connection connection;
    /** This process: its inboxes are its incarnation's ({@link LeaseSubjects#inboxes(Claimant)}). */
    private final Claimant self;
    private static final Duration SUBSCRIBED = Duration.ofSeconds(2);

    private final ForwardHandler forwardHandler;
    private final HolderTelemetry telemetry;
    /** The ownership of a key this holder keeps, or empty when it keeps no such key. */
    private final Function<LeaseKey, Optional<Ownership>> kept;
    private final ExecutorService handlers;
    private volatile Dispatcher inbox;

    public ForwardInbox(Connection connection, Claimant self, ForwardHandler forwardHandler, HolderTelemetry telemetry,
            Function<LeaseKey, Optional<Ownership>> kept, ThreadFactory handlerThreads) {
        this.connection = connection;
        this.self = self;
        this.forwardHandler = forwardHandler;
        this.telemetry = telemetry;
        this.kept = kept;
        this.handlers = Executors.newCachedThreadPool(handlerThreads);
    }

    /**
     * Subscribes to this holder's inbox subjects and waits (at most
     * {@link #SUBSCRIBED}) for the server to have the subscription: once the
     * holder is built, a request sent on any connection reaches it.
     */
    public void start() {
        inbox = connection.createDispatcher(this::onForward);
        inbox.subscribe(LeaseSubjects.inboxes(self));
        try {
            connection.flush(SUBSCRIBED);
        } catch (TimeoutException notConfirmed) {
            // Serving anyway: the subscription reaches the server with the connection's next flush.
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes no more requests; handlers still running go on until they return or are interrupted. */
    public void stopReceiving() {
        Dispatcher dispatcher = inbox;
        if (dispatcher != null && connection.getStatus() != Connection.Status.CLOSED) {
            connection.closeDispatcher(dispatcher);
        }
    }

    /** Interrupts whatever handler still runs, and ends the pool. Called last, once the leases are closed. */
    public void stopHandlers() {
        handlers.shutdownNow();
    }

    private void onForward(Message request) {
        String subject = request.getSubject();
        String keyToken = LeaseSubjects.inboxTail(self, subject);
        LeaseKey leaseKey = keyToken.indexOf('.') >= 0 ? null : safeKey(keyToken);
        Ownership lease = leaseKey == null ? null : kept.apply(leaseKey).orElse(null);
        Optional<Fence> presented =
                LeaseHeaders.parseFence(request.hasHeaders() ? request.getHeaders().getFirst(LeaseHeaders.FENCE) : null);
        Span span = telemetry.startServing(subject, keyToken,
                request.hasHeaders() ? request.getHeaders() : null);
        presented.ifPresent(fence -> span.setAttribute(HolderTelemetry.REVISION, fence.revision()));
        if (lease == null || lease.admit(presented).isEmpty()) {
            rejectStale(request, keyToken, span);
            return;
        }
        handlers.execute(() -> {
            // Judge again: time may have passed in the queue, and the deadline with it. From here until
            // served(), ending ownership interrupts this thread, and a close waits for it before releasing.
            ForwardRun run = new ForwardRun(Thread.currentThread());
            Optional<Tenure> admitted = lease.admit(presented, run);
            if (admitted.isEmpty()) {
                rejectStale(request, keyToken, span);
                return;
            }
            try (Scope ignored = span.makeCurrent()) {
                byte[] reply = forwardHandler.handle(admitted.get(),
                        request.getData() == null ? new byte[0] : request.getData());
                connection.publish(request.getReplyTo(), reply == null ? new byte[0] : reply);
                span.setAttribute(HolderTelemetry.OUTCOME, "served");
            } catch (Exception failed) {
                // No reply: the caller sees owner_timeout, which says "it may have been processed".
                LOG.log(System.Logger.Level.WARNING, "the forward handler failed for " + leaseKey, failed);
                span.setAttribute(HolderTelemetry.OUTCOME, "failed");
                span.setAttribute(HolderTelemetry.ERROR_TYPE, failed.getClass().getSimpleName());
            } finally {
                lease.served(run);
                span.end();
            }
        });
    }

    private static LeaseKey safeKey(String token) {
        try {
            return new LeaseKey(token);
        } catch (IllegalArgumentException notAKey) {
            return null;
        }
    }

    private void rejectStale(Message request, String key, Span span) {
        reject(request);
        telemetry.rejectedStale(key);
        span.setAttribute(HolderTelemetry.OUTCOME, "rejected_stale");
        span.end();
    }

    private void reject(Message request) {
        if (request.getReplyTo() == null) {
            return;
        }
        Headers headers = new Headers();
        headers.put(LeaseHeaders.REJECT, LeaseHeaders.REJECT_STALE);
        connection.publish(NatsMessage.builder().subject(request.getReplyTo()).headers(headers).data(new byte[0]).build());
    }
}
