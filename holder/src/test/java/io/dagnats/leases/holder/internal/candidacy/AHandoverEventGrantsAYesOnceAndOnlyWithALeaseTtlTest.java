package io.dagnats.leases.holder.internal.candidacy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * From the review of ADR-047 (the handover's event grants the successor's yes). A yes is one claim,
 * granted once: the event of its write heard twice (a server republishing again after a leader
 * change, a test or tool replaying it) or after dagnats' grant grants nothing more, so the one
 * deadline counted from the yes is the only one there is. And an event is a grant only with a TTL a
 * lease can have ({@code Nats-TTL} read as in {@link LeaseChange}, 1 s to 10 min): any other, as an
 * absent or zero one, leaves the yes to dagnats' grant, which carries the lease's own TTL, and
 * throws nothing, since the holder hands the same event to the keeper right after the desk.
 * The events are read from headers, as the holder reads them off the wire.
 */
class AHandoverEventGrantsAYesOnceAndOnlyWithALeaseTtlTest {

    private static final HolderId ME = new HolderId("successor");
    private static final Incarnation RUN = new Incarnation("run-1");
    private static final LeaseKey KEY = new LeaseKey("handed-key");
    private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");
    private static final KeepOptions.Priority PRIORITY = new KeepOptions.Priority(1, "1.0");

    private final AtomicReference<MessageHandler> checks = new AtomicReference<>();
    private final CandidateDesk desk = new CandidateDesk(connection(), Claimant.of(ME, RUN), () -> 1_000L);
    private final List<LeaseView> granted = new ArrayList<>();

    private final CandidateDesk.Seat seat = new CandidateDesk.Seat() {
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
            granted.add(lease);
        }
    };

    @Test
    void theEventOfAYesHeardAgainGrantsNothingMore() throws InterruptedException {
        desk.stand(KEY, PRIORITY, seat);
        check("check-1");

        desk.heard(handedOver("check-1", 20, "15s"));
        desk.heard(handedOver("check-1", 20, "15s"));
        grant("check-1", 20);

        assertEquals(List.of(new Fence(20)), granted.stream().map(LeaseView::revision).toList(), "one yes, one grant");
    }

    @Test
    void theEventAfterTheGrantGrantsNothingMore() throws InterruptedException {
        desk.stand(KEY, PRIORITY, seat);
        check("check-1");

        grant("check-1", 20);
        desk.heard(handedOver("check-1", 20, "15s"));

        assertEquals(List.of(new Fence(20)), granted.stream().map(LeaseView::revision).toList(), "one yes, one grant");
    }

    @ParameterizedTest(name = "Nats-TTL {0}")
    @ValueSource(strings = {"15s", "15"})
    void anEventWithTheTtlDagnatsWritesGrantsWithThatTtl(String ttl) throws InterruptedException {
        desk.stand(KEY, PRIORITY, seat);
        check("check-1");

        desk.heard(handedOver("check-1", 20, ttl));

        assertEquals(List.of(new LeaseTtl(15_000)), granted.stream().map(LeaseView::ttl).toList());
    }

    /** Seen failing before the fix for "-1", "-15s", "601s" and "3600": the desk threw after spending the yes. */
    @ParameterizedTest(name = "Nats-TTL {0}")
    @ValueSource(strings = {"", "0", "0s", "-1", "-15s", "601s", "3600", "never", "1m"})
    void anEventWithNoLeaseTtlGrantsNothingThrowsNothingAndLeavesTheYesToTheGrant(String ttl)
            throws InterruptedException {
        desk.stand(KEY, PRIORITY, seat);
        check("check-1");

        assertDoesNotThrow(() -> desk.heard(handedOver("check-1", 20, ttl.isEmpty() ? null : ttl)),
                "the keeper hears the same event next: the desk must not stop it");
        assertEquals(List.of(), granted, "no lease TTL, no grant from the event");

        grant("check-1", 20);
        assertEquals(List.of(new Fence(20)), granted.stream().map(LeaseView::revision).toList(), "dagnats' grant still");
    }

    private static LeaseChange handedOver(String check, long revision, String ttl) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Nats-Sequence", Long.toString(revision));
        headers.put(LeaseHeaders.EVENT, "handed-over");
        headers.put(LeaseHeaders.HOLDER, ME.value());
        headers.put(LeaseHeaders.INCARNATION, RUN.value());
        headers.put(LeaseHeaders.FROM, "old-owner");
        headers.put(LeaseHeaders.CHECK, check);
        if (ttl != null) {
            headers.put("Nats-TTL", ttl);
        }
        return LeaseChange.read(LeaseSubjects.changed(KEY), headers::get, NOW).orElseThrow();
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

    /** The candidate checks' handler kept; everything else does nothing. */
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
        return proxy(Connection.class, (proxy, method, args) ->
                method.getName().equals("createDispatcher") ? dispatcher : null);
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
