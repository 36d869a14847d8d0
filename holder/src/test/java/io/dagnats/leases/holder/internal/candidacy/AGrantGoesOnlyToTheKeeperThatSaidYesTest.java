package io.dagnats.leases.holder.internal.candidacy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.holder.KeepOptions;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * From the s35 review of ADR-046: a yes is said by one keeper of a key, and only that keeper may
 * own on its grant. A keeper closed after its yes (its close may have acquired and released the
 * handed-over write: a tombstone its floors need not have heard) is gone with its yes; a keeper of
 * the same key kept again afterwards said nothing, and a late grant of the old yes would make it
 * owner from a moment it never claimed, of a write that may already be released and taken by
 * another holder. The desk is driven by hand on a connection that connects to nothing.
 */
class AGrantGoesOnlyToTheKeeperThatSaidYesTest {

    private static final HolderId ME = new HolderId("successor");
    private static final Incarnation RUN = new Incarnation("run-1");
    private static final LeaseKey KEY = new LeaseKey("handed-key");
    private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");
    private static final KeepOptions.Priority PRIORITY = new KeepOptions.Priority(1, "1.0");

    private final AtomicReference<MessageHandler> checks = new AtomicReference<>();
    private final List<String> published = new ArrayList<>();
    private final CandidateDesk desk = new CandidateDesk(connection(), Claimant.of(ME, RUN), () -> 1_000L);

    private final class Seat implements CandidateDesk.Seat {
        final List<Fence> granted = new ArrayList<>();
        final List<Long> saidAt = new ArrayList<>();
        final List<LeaseTtl> ttls = new ArrayList<>();

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

    @Test
    void aGrantOfAYesSaidByAClosedKeeperDoesNotMakeTheNextKeeperOfTheKeyOwner() throws InterruptedException {
        Seat first = new Seat();
        desk.stand(KEY, PRIORITY, first);
        check("check-1");
        assertEquals(1, published.size(), "the first keeper said yes");
        desk.withdraw(KEY); // that keeper closed (and may have released what was handed to it)
        Seat second = new Seat();
        desk.stand(KEY, PRIORITY, second); // the key kept again
        grant("check-1", 20);
        assertEquals(List.of(), second.granted, "the second keeper said no yes: no grant is its own");
        assertEquals(List.of(), first.granted, "the first keeper is closed");
    }

    @Test
    void aGrantOfTheKeepersOwnYesReachesIt() throws InterruptedException {
        Seat seat = new Seat();
        desk.stand(KEY, PRIORITY, seat);
        check("check-1");
        grant("check-1", 20);
        assertEquals(List.of(new Fence(20)), seat.granted);
    }

    /** ADR-047: the handover's event names the check; it grants the yes as the grant would, once. */
    @Test
    void theHandoverEventNamingTheKeepersYesGrantsItAndTheGrantAfterItIsSpent() throws InterruptedException {
        Seat seat = new Seat();
        desk.stand(KEY, PRIORITY, seat);
        check("check-1");

        desk.heard(handedOver(Optional.of("check-1"), 20));
        grant("check-1", 20);

        assertEquals(List.of(new Fence(20)), seat.granted, "granted once, by the event");
        assertEquals(List.of(1_000L), seat.saidAt, "its deadline counts from the yes");
        assertEquals(List.of(new LeaseTtl(15_000)), seat.ttls, "with the TTL the write carries");
    }

    @Test
    void anEventNamingNoCheckAnotherCheckOrAnotherKeyGrantsNothingAndTheGrantStillDoes() throws InterruptedException {
        Seat seat = new Seat();
        desk.stand(KEY, PRIORITY, seat);
        check("check-1");

        desk.heard(handedOver(Optional.empty(), 20));
        desk.heard(handedOver(Optional.of("check-2"), 20));
        desk.heard(new LeaseChange(NOW, new LeaseKey("other-key"), LeaseChange.Kind.HANDED_OVER, 20, Optional.of(ME),
                Optional.of(RUN), Optional.of(new Fence(20)), Optional.empty(), Optional.of(Duration.ofSeconds(15)),
                OptionalLong.empty(), Optional.empty(), Optional.of("check-1")));
        assertEquals(List.of(), seat.granted);

        grant("check-1", 20);
        assertEquals(List.of(new Fence(20)), seat.granted, "the grant, still unspent");
    }

    @Test
    void theEventOfAYesSaidByAClosedKeeperDoesNotMakeTheNextKeeperOfTheKeyOwner() throws InterruptedException {
        Seat first = new Seat();
        desk.stand(KEY, PRIORITY, first);
        check("check-1");
        desk.withdraw(KEY);
        Seat second = new Seat();
        desk.stand(KEY, PRIORITY, second);

        desk.heard(handedOver(Optional.of("check-1"), 20));

        assertEquals(List.of(), second.granted);
        assertEquals(List.of(), first.granted);
    }

    private static LeaseChange handedOver(Optional<String> check, long revision) {
        return new LeaseChange(NOW, KEY, LeaseChange.Kind.HANDED_OVER, revision, Optional.of(ME), Optional.of(RUN),
                Optional.of(new Fence(revision)), Optional.empty(), Optional.of(Duration.ofSeconds(15)),
                OptionalLong.empty(), Optional.empty(), check);
    }

    private void check(String id) throws InterruptedException {
        checks.get().onMessage(NatsMessage.builder().subject(LeaseSubjects.candidate(ME, KEY)).replyTo("_INBOX.asked")
                .data(new CandidateCheck(RUN.value(), Optional.of(id)).encode()).build());
    }

    private void grant(String id, long revision) throws InterruptedException {
        Lease written = new Lease(KEY, ME, Optional.of(RUN), new Fence(revision), new Fence(revision), NOW, NOW,
                new LeaseTtl(15_000));
        checks.get().onMessage(NatsMessage.builder().subject(LeaseSubjects.candidate(ME, KEY))
                .headers(new Headers().put(LeaseHeaders.CHECK, id)).data(Replies.handedOver(written)).build());
    }

    /** Subscriptions are remembered (the candidate checks' handler kept), publishes counted, the rest does nothing. */
    private Connection connection() {
        Dispatcher dispatcher = proxy(Dispatcher.class, (proxy, method, args) -> {
            if (method.getName().equals("subscribe") && args.length == 2 && args[1] instanceof MessageHandler handler) {
                if (args[0].equals(LeaseSubjects.candidateChecks(ME))) {
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
            if (method.getName().equals("publish")) {
                published.add(String.valueOf(args[0]));
            }
            return null;
        });
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
