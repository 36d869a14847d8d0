package io.dagnats.leases.holder.internal.candidacy;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.protocol.CandidateCheck;
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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link CandidateDesk}'s wire, played by hand: a connection that connects to nothing, keeping the
 * handler of the desk's candidate checks and noting where the desk answered with a candidate (a yes; a
 * refusal carries a header). dagnats' check and grant are handed to that handler as NATS would.
 */
public final class DeskWire {

    /** The process a test's desk belongs to, the key it keeps, and when its writes were made. */
    public static final HolderId ME = new HolderId("successor");
    public static final Incarnation RUN = new Incarnation("run-1");
    public static final LeaseKey KEY = new LeaseKey("handed-key");
    public static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");
    public static final KeepOptions.Priority PRIORITY = new KeepOptions.Priority(1, "1.0");
    /** The monotonic moment its desk reads, whenever it reads. */
    public static final long SAID_AT = 1_000L;

    private final Claimant self;
    private final AtomicReference<MessageHandler> checks = new AtomicReference<>();
    private final Set<String> yeses = new HashSet<>();

    public DeskWire(Claimant self) {
        this.self = self;
    }

    /** The wire of {@link #ME} under {@link #RUN}. */
    public DeskWire() {
        this(Claimant.of(ME, RUN));
    }

    /** A desk of this wire's process on it, its clock at {@link #SAID_AT}. */
    public CandidateDesk desk() {
        return new CandidateDesk(connection(), self, () -> SAID_AT);
    }

    /** A keeper's seat that waits, and notes what it was granted: the revision, the yes's moment, the TTL. */
    public static final class WaitingSeat implements CandidateDesk.Seat {
        public final List<Fence> granted = new ArrayList<>();
        public final List<Long> saidAt = new ArrayList<>();
        public final List<LeaseTtl> ttls = new ArrayList<>();

        @Override
        public boolean waiting() {
            return true;
        }

        @Override
        public boolean owner() {
            return false;
        }

        @Override
        public void expecting(boolean granting) {
        }

        @Override
        public void granted(LeaseView lease, long saidAt) {
            granted.add(lease.revision());
            this.saidAt.add(saidAt);
            ttls.add(lease.ttl());
        }
    }

    /** dagnats' targeted check of {@code key} under {@code check}: whether the desk said yes. */
    public boolean check(LeaseKey key, String check) {
        String inbox = "_INBOX." + check;
        deliver(NatsMessage.builder().subject(LeaseSubjects.candidate(self.holder(), key)).replyTo(inbox)
                .data(new CandidateCheck(self.incarnation().orElseThrow().value(), Optional.of(check)).encode()).build());
        return yeses.contains(inbox);
    }

    /** dagnats' grant of the yes to {@code check}: the handover's reply for {@code written}, on the same subject. */
    public void grant(String check, Lease written) {
        deliver(NatsMessage.builder().subject(LeaseSubjects.candidate(self.holder(), written.key()))
                .headers(new Headers().put(LeaseHeaders.CHECK, check)).data(Replies.handedOver(written)).build());
    }

    /** A grant of the yes to {@code check}: {@code key} handed to this process at {@code revision}, for 15 s. */
    public void grant(String check, LeaseKey key, long revision) {
        grant(check, new Lease(key, self.holder(), self.incarnation(), new Fence(revision), new Fence(revision), NOW, NOW,
                new LeaseTtl(15_000)));
    }

    private void deliver(NatsMessage message) {
        try {
            checks.get().onMessage(message);
        } catch (InterruptedException notHere) {
            throw new IllegalStateException(notHere);
        }
    }

    /** The connection to build the desk on. */
    public Connection connection() {
        Dispatcher dispatcher = proxy(Dispatcher.class, (proxy, method, args) -> {
            if (method.getName().equals("subscribe") && args.length == 2 && args[1] instanceof MessageHandler handler) {
                if (args[0].equals(LeaseSubjects.candidateChecks(self.holder()))) {
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
