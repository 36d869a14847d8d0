package io.dagnats.leases.holder.internal.candidacy;

import static io.dagnats.leases.holder.internal.candidacy.DeskWire.KEY;
import static io.dagnats.leases.holder.internal.candidacy.DeskWire.ME;
import static io.dagnats.leases.holder.internal.candidacy.DeskWire.NOW;
import static io.dagnats.leases.holder.internal.candidacy.DeskWire.PRIORITY;
import static io.dagnats.leases.holder.internal.candidacy.DeskWire.RUN;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.LeaseChange;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
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

    private final DeskWire wire = new DeskWire();
    private final CandidateDesk desk = wire.desk();

    @Test
    void aGrantOfAYesSaidByAClosedKeeperDoesNotMakeTheNextKeeperOfTheKeyOwner() {
        DeskWire.WaitingSeat first = new DeskWire.WaitingSeat();
        desk.stand(KEY, PRIORITY, first);
        assertEquals(true, wire.check(KEY, "check-1"), "the first keeper said yes");
        desk.withdraw(KEY); // that keeper closed (and may have released what was handed to it)
        DeskWire.WaitingSeat second = new DeskWire.WaitingSeat();
        desk.stand(KEY, PRIORITY, second); // the key kept again
        wire.grant("check-1", KEY, 20);
        assertEquals(List.of(), second.granted, "the second keeper said no yes: no grant is its own");
        assertEquals(List.of(), first.granted, "the first keeper is closed");
    }

    @Test
    void aGrantOfTheKeepersOwnYesReachesIt() {
        DeskWire.WaitingSeat seat = new DeskWire.WaitingSeat();
        desk.stand(KEY, PRIORITY, seat);
        wire.check(KEY, "check-1");
        wire.grant("check-1", KEY, 20);
        assertEquals(List.of(new Fence(20)), seat.granted);
    }

    /** ADR-047: the handover's event names the check; it grants the yes as the grant would, once. */
    @Test
    void theHandoverEventNamingTheKeepersYesGrantsItAndTheGrantAfterItIsSpent() {
        DeskWire.WaitingSeat seat = new DeskWire.WaitingSeat();
        desk.stand(KEY, PRIORITY, seat);
        wire.check(KEY, "check-1");

        desk.heard(handedOver(Optional.of("check-1"), 20));
        wire.grant("check-1", KEY, 20);

        assertEquals(List.of(new Fence(20)), seat.granted, "granted once, by the event");
        assertEquals(List.of(DeskWire.SAID_AT), seat.saidAt, "its deadline counts from the yes");
        assertEquals(List.of(new LeaseTtl(15_000)), seat.ttls, "with the TTL the write carries");
    }

    @Test
    void anEventNamingNoCheckAnotherCheckOrAnotherKeyGrantsNothingAndTheGrantStillDoes() {
        DeskWire.WaitingSeat seat = new DeskWire.WaitingSeat();
        desk.stand(KEY, PRIORITY, seat);
        wire.check(KEY, "check-1");

        desk.heard(handedOver(Optional.empty(), 20));
        desk.heard(handedOver(Optional.of("check-2"), 20));
        desk.heard(new LeaseChange(NOW, new LeaseKey("other-key"), LeaseChange.Kind.HANDED_OVER, 20, Optional.of(ME),
                Optional.of(RUN), Optional.of(new Fence(20)), Optional.empty(), Optional.of(Duration.ofSeconds(15)),
                OptionalLong.empty(), Optional.empty(), Optional.of("check-1")));
        assertEquals(List.of(), seat.granted);

        wire.grant("check-1", KEY, 20);
        assertEquals(List.of(new Fence(20)), seat.granted, "the grant, still unspent");
    }

    @Test
    void theEventOfAYesSaidByAClosedKeeperDoesNotMakeTheNextKeeperOfTheKeyOwner() {
        DeskWire.WaitingSeat first = new DeskWire.WaitingSeat();
        desk.stand(KEY, PRIORITY, first);
        wire.check(KEY, "check-1");
        desk.withdraw(KEY);
        DeskWire.WaitingSeat second = new DeskWire.WaitingSeat();
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
}
