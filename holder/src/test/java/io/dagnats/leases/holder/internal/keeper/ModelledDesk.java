package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.internal.candidacy.CandidateDesk;
import io.dagnats.leases.protocol.CandidateCheck;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.Replies;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.MessageHandler;
import io.nats.client.Subscription;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The real {@link CandidateDesk} of one {@link ModelledKeeper}, standing for its key from the start,
 * on a connection that connects to nothing: dagnats' check and grant are handed to the desk's
 * handler as NATS would, its answers noted, and its seat is the modelled keeper, as {@code KeptKeys}
 * makes it (a yes tells the keeper to expect the key, a grant is the keeper's {@code Granted}).
 */
final class ModelledDesk {

    /** When the last change event reaches this keeper: its subscription keeps the server's order. */
    long lastEvent;
    private final ModelledKeeper keeper;
    private final AtomicReference<MessageHandler> checks = new AtomicReference<>();
    /** The reply subjects the desk answered with a candidate (a yes), not a reject. */
    private final Set<String> yeses = new HashSet<>();
    private final CandidateDesk desk;

    ModelledDesk(ModelledKeeper keeper, MonotonicClock clock) {
        this.keeper = keeper;
        this.desk = new CandidateDesk(connection(), keeper.self, clock);
        desk.stand(KeeperHarness.KEY, new KeepOptions.Priority(0, "1.0"), new CandidateDesk.Seat() {
            @Override
            public boolean waiting() {
                return keeper.waiting();
            }

            @Override
            public boolean owner() {
                return keeper.believed.isPresent();
            }

            @Override
            public void expecting(boolean granting) {
                keeper.on(new KeeperEvent.Expecting(granting));
            }

            @Override
            public void granted(LeaseView lease, long saidAt) {
                keeper.on(new KeeperEvent.Granted(lease, saidAt));
            }
        });
    }

    /** dagnats' targeted check under {@code check}: whether the desk said yes. */
    boolean ask(String check) {
        String inbox = "_INBOX." + check;
        deliver(NatsMessage.builder().subject(LeaseSubjects.candidate(keeper.self.holder(), KeeperHarness.KEY))
                .replyTo(inbox).data(new CandidateCheck(keeper.self.incarnation().orElseThrow().value(),
                        Optional.of(check)).encode()).build());
        return yeses.contains(inbox);
    }

    /** dagnats' grant of the yes to {@code check}: the handover's reply, on the same subject. */
    void grant(String check, LeaseView view) {
        Lease written = new Lease(view.key(), view.holder(), view.incarnation(), view.revision(),
                view.tenure().orElseThrow(), view.acquiredAt(), view.acquiredAt(), view.ttl());
        deliver(NatsMessage.builder().subject(LeaseSubjects.candidate(keeper.self.holder(), KeeperHarness.KEY))
                .headers(new Headers().put(LeaseHeaders.CHECK, check)).data(Replies.handedOver(written)).build());
    }

    void heard(LeaseChange change) {
        desk.heard(change);
    }

    void withdraw() {
        desk.withdraw(KeeperHarness.KEY);
    }

    /** A write's change event as the server republishes it: a handover's names its check (ADR-047). */
    static Optional<LeaseChange> change(String kind, long sequence, Claimant by, LeaseTtl ttl, Optional<String> check) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Nats-Sequence", Long.toString(sequence));
        if (kind.equals("expired")) {
            headers.put("Nats-Marker-Reason", "MaxAge");
        } else {
            headers.put(LeaseHeaders.EVENT, kind);
            headers.put(LeaseHeaders.HOLDER, by.holder().value());
            by.incarnation().ifPresent(incarnation -> headers.put(LeaseHeaders.INCARNATION, incarnation.value()));
            headers.put("Nats-TTL", ttl.seconds() + "s");
            check.ifPresent(id -> headers.put(LeaseHeaders.CHECK, id));
        }
        return LeaseChange.read(LeaseSubjects.changed(KeeperHarness.KEY), headers::get, Instant.EPOCH);
    }

    private void deliver(NatsMessage message) {
        try {
            checks.get().onMessage(message);
        } catch (InterruptedException notHere) {
            throw new IllegalStateException(notHere);
        }
    }

    /** The candidate checks' handler kept; a publish of a body alone to an inbox is a yes; the rest does nothing. */
    private Connection connection() {
        Dispatcher dispatcher = proxy(Dispatcher.class, (proxy, method, args) -> {
            if (method.getName().equals("subscribe") && args.length == 2 && args[1] instanceof MessageHandler handler) {
                if (args[0].equals(LeaseSubjects.candidateChecks(keeper.self.holder()))) {
                    checks.set(handler);
                }
                return proxy(Subscription.class, (p, m, a) -> null);
            }
            return method.getName().equals("isActive") ? Boolean.TRUE : proxy;
        });
        return proxy(Connection.class, (proxy, method, args) -> {
            if (method.getName().equals("createDispatcher")) {
                return dispatcher;
            }
            if (method.getName().equals("publish") && args.length == 2 && args[1] instanceof byte[]) {
                yeses.add(String.valueOf(args[0]));
            }
            return null;
        });
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
