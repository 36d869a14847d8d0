package io.dagnats.leases.holder.internal.candidacy;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.holder.Candidate;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.internal.CandidateCalls;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.Subscription;
import io.nats.client.impl.Headers;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * One holder's candidacy on the wire (ADR-042): for each key it keeps with candidacy on, it
 * answers {@code dagnats.lease.candidates.<key>} (waiting or owner), and on its one
 * {@code dagnats.lease.candidate.<holder>.>} subscription it says yes to a handover check only
 * while it waits for that key (telling its keeper to expect the key), and
 * {@code Dagnats-Lease-Reject: stale} otherwise; a check for another incarnation it does not answer
 * at all, since dagnats takes the first answer and a sibling process's yes must not lose to it. Nothing is stored: a candidate is gone
 * the moment it stops answering. It also asks a key's candidates for an owner ({@link CandidateCalls}).
 */
public final class CandidateDesk implements CandidateCalls {

    /** What a kept key tells the desk of itself. */
    public interface Seat {
        boolean waiting();

        boolean owner();

        /** Said yes to a handover check: the key may come any moment. */
        void expecting();
    }

    private record Standing(KeepOptions.Priority priority, long since, Seat seat, Subscription subscription) {
    }

    private final Connection connection;
    private final Claimant self;
    private final MonotonicClock clock;
    private final Map<LeaseKey, Standing> standing = new ConcurrentHashMap<>();
    private volatile Dispatcher dispatcher;

    public CandidateDesk(Connection connection, Claimant self, MonotonicClock clock) {
        this.connection = connection;
        this.self = self;
        this.clock = clock;
    }

    private synchronized Dispatcher dispatcher() {
        if (dispatcher == null) {
            dispatcher = connection.createDispatcher();
            dispatcher.subscribe(LeaseSubjects.candidateChecks(self.holder()), this::check);
        }
        return dispatcher;
    }

    /** Answers for {@code key} from now until {@link #withdraw}; its wait counts from now. */
    public void stand(LeaseKey key, KeepOptions.Priority priority, Seat seat) {
        Dispatcher subscriptions = dispatcher();
        Subscription subscription = subscriptions.subscribe(LeaseSubjects.candidates(key), ask -> {
            Standing mine = standing.get(key);
            if (mine != null && ask.getReplyTo() != null && (mine.seat().waiting() || mine.seat().owner())) {
                connection.publish(ask.getReplyTo(), CandidateAnswer.write(key, candidate(mine, mine.seat().owner())));
            }
        });
        standing.put(key, new Standing(priority, clock.nanoTime(), seat, subscription));
    }

    public void withdraw(LeaseKey key) {
        Standing gone = standing.remove(key);
        Dispatcher subscriptions = dispatcher;
        if (gone != null && subscriptions != null && subscriptions.isActive()) {
            subscriptions.unsubscribe(gone.subscription());
        }
    }

    private Candidate candidate(Standing mine, boolean owner) {
        long waited = Math.max(0, clock.nanoTime() - mine.since()) / 1_000_000L;
        return new Candidate(self.holder(), self.incarnation().orElseThrow(), mine.priority().priority(),
                mine.priority().version(), Duration.ofMillis(waited), owner);
    }

    /** A handover check: yes only while waiting for the key under the incarnation asked for. */
    private void check(Message ask) {
        if (ask.getReplyTo() == null) {
            return;
        }
        Optional<Standing> mine = keyOf(ask.getSubject()).map(standing::get);
        if (!CandidateAnswer.askedIncarnation(ask.getData()).equals(self.incarnation().map(Incarnation::value))) {
            return; // another process under this holder id is asked: its yes must not lose to this one's no
        }
        boolean yes = mine.isPresent() && mine.get().seat().waiting();
        if (!yes) {
            Headers reject = new Headers().put(LeaseHeaders.REJECT, LeaseHeaders.REJECT_STALE);
            connection.publish(ask.getReplyTo(), reject, new byte[0]);
            return;
        }
        LeaseKey key = keyOf(ask.getSubject()).orElseThrow();
        mine.get().seat().expecting();
        connection.publish(ask.getReplyTo(), CandidateAnswer.write(key, candidate(mine.get(), false)));
    }

    private Optional<LeaseKey> keyOf(String subject) {
        try {
            return Optional.of(new LeaseKey(LeaseSubjects.candidateTail(self.holder(), subject)));
        } catch (IllegalArgumentException notAKey) {
            return Optional.empty();
        }
    }

    @Override
    public CompletableFuture<List<Candidate>> ask(LeaseKey key, Duration window) {
        List<Candidate> answered = new CopyOnWriteArrayList<>();
        CompletableFuture<List<Candidate>> gathered = new CompletableFuture<>();
        try {
            Dispatcher subscriptions = dispatcher();
            String inbox = connection.createInbox();
            Subscription replies = subscriptions.subscribe(inbox, reply -> {
                if (reply.isStatusMessage()) {
                    gathered.complete(List.copyOf(answered)); // no responders: nobody waits
                } else {
                    CandidateAnswer.read(key, reply.getData()).ifPresent(answered::add);
                }
            });
            gathered.whenComplete((done, failed) -> {
                if (subscriptions.isActive()) {
                    subscriptions.unsubscribe(replies);
                }
            });
            connection.publish(LeaseSubjects.candidates(key), inbox,
                    ("{\"key\":\"" + key.value() + "\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            CompletableFuture.delayedExecutor(window.toNanos(), TimeUnit.NANOSECONDS)
                    .execute(() -> gathered.complete(List.copyOf(answered)));
        } catch (RuntimeException away) {
            gathered.complete(List.of()); // NATS away: nobody to hand over to
        }
        return gathered;
    }

    /** Stops answering; the connection stays open. */
    public void close() {
        standing.clear();
        Dispatcher subscriptions = dispatcher;
        if (subscriptions != null && connection.getStatus() != Connection.Status.CLOSED) {
            connection.closeDispatcher(subscriptions);
        }
    }
}
