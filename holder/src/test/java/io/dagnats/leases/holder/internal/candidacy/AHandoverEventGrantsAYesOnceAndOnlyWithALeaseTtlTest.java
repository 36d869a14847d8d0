package io.dagnats.leases.holder.internal.candidacy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static io.dagnats.leases.holder.internal.candidacy.DeskWire.KEY;
import static io.dagnats.leases.holder.internal.candidacy.DeskWire.ME;
import static io.dagnats.leases.holder.internal.candidacy.DeskWire.NOW;
import static io.dagnats.leases.holder.internal.candidacy.DeskWire.PRIORITY;
import static io.dagnats.leases.holder.internal.candidacy.DeskWire.RUN;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

    private final DeskWire wire = new DeskWire();
    private final CandidateDesk desk = wire.desk();
    private final DeskWire.WaitingSeat seat = new DeskWire.WaitingSeat();

    @Test
    void theEventOfAYesHeardAgainGrantsNothingMore() {
        desk.stand(KEY, PRIORITY, seat);
        wire.check(KEY, "check-1");

        desk.heard(handedOver("check-1", 20, "15s"));
        desk.heard(handedOver("check-1", 20, "15s"));
        wire.grant("check-1", KEY, 20);

        assertEquals(List.of(new Fence(20)), seat.granted, "one yes, one grant");
    }

    @Test
    void theEventAfterTheGrantGrantsNothingMore() {
        desk.stand(KEY, PRIORITY, seat);
        wire.check(KEY, "check-1");

        wire.grant("check-1", KEY, 20);
        desk.heard(handedOver("check-1", 20, "15s"));

        assertEquals(List.of(new Fence(20)), seat.granted, "one yes, one grant");
    }

    @ParameterizedTest(name = "Nats-TTL {0}")
    @ValueSource(strings = {"15s", "15"})
    void anEventWithTheTtlDagnatsWritesGrantsWithThatTtl(String ttl) {
        desk.stand(KEY, PRIORITY, seat);
        wire.check(KEY, "check-1");

        desk.heard(handedOver("check-1", 20, ttl));

        assertEquals(List.of(new LeaseTtl(15_000)), seat.ttls);
    }

    /** Seen failing before the fix for "-1", "-15s", "601s" and "3600": the desk threw after spending the yes. */
    @ParameterizedTest(name = "Nats-TTL {0}")
    @ValueSource(strings = {"", "0", "0s", "-1", "-15s", "601s", "3600", "never", "1m"})
    void anEventWithNoLeaseTtlGrantsNothingThrowsNothingAndLeavesTheYesToTheGrant(String ttl)
            {
        desk.stand(KEY, PRIORITY, seat);
        wire.check(KEY, "check-1");

        assertDoesNotThrow(() -> desk.heard(handedOver("check-1", 20, ttl.isEmpty() ? null : ttl)),
                "the keeper hears the same event next: the desk must not stop it");
        assertEquals(List.of(), seat.granted, "no lease TTL, no grant from the event");

        wire.grant("check-1", KEY, 20);
        assertEquals(List.of(new Fence(20)), seat.granted, "dagnats' grant still");
    }

    private static LeaseChange handedOver(String check, long revision, String ttl) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Nats-Sequence", Long.toString(revision));
        headers.put(LeaseHeaders.EVENT, LeaseEvent.HANDED_OVER.wireName());
        headers.put(LeaseHeaders.HOLDER, ME.value());
        headers.put(LeaseHeaders.INCARNATION, RUN.value());
        headers.put(LeaseHeaders.FROM, "old-owner");
        headers.put(LeaseHeaders.CHECK, check);
        if (ttl != null) {
            headers.put("Nats-TTL", ttl);
        }
        return LeaseChange.read(LeaseSubjects.changed(KEY), headers::get, NOW).orElseThrow();
    }
}
