package io.dagnats.leases.holder.internal.candidacy;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.holder.Candidate;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.internal.CandidateCalls;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.AttachedAndHandoverReplies;
import io.dagnats.leases.protocol.CandidateCheck;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.LeaseView;
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
 *
 * <p>A yes is this process's claim (ADR-046): the desk notes when it was about to say it, under the
 * check's id, and dagnats' grant naming that id (a message on the same subject, no reply wanted),
 * or the handover's change event naming it (ADR-047), whichever comes first, hands the keeper the
 * written lease with that moment, from which its deadline counts.
 */
public final class CandidateDesk implements CandidateCalls {

    /** What a kept key tells the desk of itself. */
    public interface Seat {
        boolean waiting();

        boolean owner();

        /** Said yes to a handover check: the key may come any moment; {@code granting}, the check named itself (ADR-046). */
        void expecting(boolean granting);

        /** dagnats granted {@code lease} in answer to a yes about to be sent at {@code saidAt} (monotonic nanos). */
        void granted(LeaseView lease, long saidAt);
    }

    private record Standing(KeepOptions.Priority priority, long since, Seat seat, Subscription subscription) {
    }

    private final Connection connection;
    private final Claimant self;
    private final MonotonicClock clock;
    private final Map<LeaseKey, Standing> standing = new ConcurrentHashMap<>();
    private final SaidYeses<Seat> yeses = new SaidYeses<>();
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

    /**
     * A handover check: yes only while waiting for the key under the incarnation asked for. A message
     * that wants no reply is dagnats' grant of a yes ({@link #granted}).
     */
    private void check(Message ask) {
        if (ask.getReplyTo() == null) {
            granted(ask);
            return;
        }
        Optional<Standing> mine = keyOf(ask.getSubject()).map(standing::get);
        Optional<CandidateCheck> asked = CandidateCheck.decode(ask.getData());
        if (!asked.map(CandidateCheck::incarnation).equals(self.incarnation().map(Incarnation::value))) {
            return; // another process under this holder id is asked: its yes must not lose to this one's no
        }
        boolean yes = mine.isPresent() && mine.get().seat().waiting();
        if (!yes) {
            Headers reject = new Headers().put(LeaseHeaders.REJECT, LeaseHeaders.REJECT_STALE);
            connection.publish(ask.getReplyTo(), reject, new byte[0]);
            return;
        }
        LeaseKey key = keyOf(ask.getSubject()).orElseThrow();
        long saidAt = clock.nanoTime(); // before the yes leaves: dagnats writes only after it has it
        Seat seat = mine.get().seat();
        asked.get().check().ifPresent(check -> yeses.said(check, new SaidYeses.Yes<>(key, saidAt, seat)));
        connection.publish(ask.getReplyTo(), CandidateAnswer.write(key, candidate(mine.get(), false)));
        // After the yes, not before: waking the keeper is no part of the answer dagnats waits for.
        seat.expecting(asked.get().check().isPresent());
    }

    /**
     * dagnats' grant: the handover's reply, naming in {@link LeaseHeaders#CHECK} the check this
     * process said yes to, about the same key, for the keeper that said it. Anything else (an unknown
     * or spent id, another key, a keeper of the key kept since, a body that is no handover) is dropped: the handed-over event still comes, and a renew confirms.
     */
    private void granted(Message grant) {
        String check = grant.hasHeaders() ? grant.getHeaders().getFirst(LeaseHeaders.CHECK) : null;
        Optional<LeaseKey> key = keyOf(grant.getSubject());
        Optional<SaidYeses.Yes<Seat>> yes = key.flatMap(about -> spend(check, about));
        if (yes.isEmpty()) {
            return;
        }
        try {
            if (AttachedAndHandoverReplies.decodeHandover(grant.getData()) instanceof Answers.Handover.HandedOver handed
                    && handed.lease().key().equals(yes.get().key())) {
                yes.get().seat().granted(handed.lease(), yes.get().saidAt());
            }
        } catch (RuntimeException notAHandover) {
            // dropped, as above
        }
    }

    /**
     * A change event of a key this process keeps (ADR-047): a handover's event names the check its
     * write answered, and the server republishes it as the write lands, before dagnats' grant can
     * come. It grants the yes to that check as the grant would, under the same rules: the same key,
     * the keeper that said it, spent once (whichever of the two comes first). Any other event, and
     * one that names no check or a check this process did not say yes to, is not a grant. Nor is one
     * whose {@code Nats-TTL} is no lease's TTL (absent, zero, negative, over ten minutes): it leaves the
     * yes unspent for dagnats' grant, which carries the lease's own TTL, and throws nothing, since the
     * keeper is handed the same event right after.
     */
    public void heard(LeaseChange change) {
        Optional<LeaseTtl> ttl = change.ttl().flatMap(LeaseTtl::of);
        if (change.kind() != LeaseChange.Kind.HANDED_OVER || change.check().isEmpty() || change.holder().isEmpty()
                || change.fence().isEmpty() || ttl.isEmpty()) {
            return;
        }
        Optional<SaidYeses.Yes<Seat>> yes = spend(change.check().get(), change.key());
        if (yes.isPresent()) {
            yes.get().seat().granted(new LeaseView(change.key(), change.holder().get(), change.incarnation(),
                    change.fence().get(), change.fence(), change.time(), change.time().plus(ttl.get().duration()),
                    ttl.get()), yes.get().saidAt());
        }
    }

    /** The yes to {@code check}, said about {@code key} by the keeper that keeps it now, forgotten; else empty. */
    private Optional<SaidYeses.Yes<Seat>> spend(String check, LeaseKey key) {
        Optional<SaidYeses.Yes<Seat>> yes = yeses.spend(check, key);
        Standing mine = standing.get(key);
        return yes.filter(said -> mine != null && mine.seat() == said.seat());
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
