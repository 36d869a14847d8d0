package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.Candidate;
import io.dagnats.leases.protocol.JsonObjects;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Subscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Scatter-gather of a key's candidates (ADR-042): one request published on
 * {@code dagnats.lease.candidates.<key>} with a fresh inbox, every answer there until the window
 * closes. Candidates are asked live, never stored: what answers is what waits now. An answer that is
 * no candidate object, or one for another key, is dropped; one process answering twice counts once
 * (its last answer); at most {@value #MAX_CANDIDATES} are kept, so a flood cannot grow the reply past
 * what a server carries.
 */
final class CandidateGathering {

    static final int MAX_CANDIDATES = 500;

    private static final ScheduledExecutorService WINDOWS = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "dagnats-candidate-windows");
        thread.setDaemon(true);
        return thread;
    });

    private final Connection connection;
    private final Dispatcher inboxes;

    CandidateGathering(Connection connection) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.inboxes = connection.createDispatcher();
    }

    CompletionStage<List<Candidate>> gather(LeaseKey key, Duration window) {
        String inbox = connection.createInbox();
        Map<Claimant, Candidate> answers = new ConcurrentHashMap<>();
        // Subscribed before the request is published, on the same connection: no answer can come first.
        Subscription subscription = inboxes.subscribe(inbox, message -> Candidate.decode(message.getData())
                .filter(candidate -> candidate.key().value().equals(key.value()))
                .filter(candidate -> answers.size() < MAX_CANDIDATES || answers.containsKey(candidate.claimant()))
                .ifPresent(candidate -> answers.put(candidate.claimant(), candidate)));
        CompletableFuture<List<Candidate>> gathered = new CompletableFuture<>();
        try {
            connection.publish(LeaseSubjects.route(key, LeaseSubjects.candidates(key)), inbox,
                    JsonObjects.bytes(generator -> generator.writeStringField("key", key.value())));
        } catch (RuntimeException closed) {
            inboxes.unsubscribe(subscription);
            return CompletableFuture.failedFuture(closed);
        }
        WINDOWS.schedule(() -> {
            try {
                inboxes.unsubscribe(subscription);
            } catch (RuntimeException closed) {
                // The connection closed meanwhile: what was gathered is still the answer.
            }
            gathered.complete(new ArrayList<>(answers.values()));
        }, window.toNanos(), TimeUnit.NANOSECONDS);
        return gathered;
    }
}
