package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * From the s35 review of ADR-046: the holder library's handover sends no TTL, so the handed-over
 * record keeps the old owner's, and a successor owning on dagnats' grant counts its deadline from
 * the shorter of that TTL and its own. Its first renew must still come before that deadline: a
 * successor of TTL 15 s handed a 3 s record, renewing a third of its own TTL after the yes (5 s),
 * stopped owning at its deadline (about 2.8 s) and left the key to expire under it, where its own
 * renew on the handed-over event (before ADR-046) kept it.
 */
class AGrantedLeaseIsRenewedBeforeItsDeadlineTest {

    private static final long NOW = 1_000_000_000_000L;
    private static final long MILLI = 1_000_000L;
    private static final Instant WALL = Instant.parse("2026-12-04T12:00:00Z");

    @ParameterizedTest(name = "handed a record of TTL {0} ms, own TTL 15 s")
    @ValueSource(longs = {1_000, 2_000, 3_000, 5_000, 15_000, 60_000})
    void theFirstRenewIsDueBeforeTheDeadlineOfTheGrant(long handedTtlMillis) {
        KeeperRules rules = new KeeperRules(KeeperHarness.KEY, KeeperHarness.SELF, KeeperHarness.TTL, bound -> 0);
        LeaseView handed = new LeaseView(KeeperHarness.KEY, KeeperHarness.ME, KeeperHarness.SELF.incarnation(),
                new Fence(20), Optional.of(new Fence(20)), WALL, WALL.plusMillis(handedTtlMillis),
                new LeaseTtl(handedTtlMillis));
        KeeperStep step = rules.next(new KeeperState.Waiting(1), KeeperMemory.FRESH,
                new KeeperEvent.Granted(handed, NOW - 100 * MILLI), new EventTime(NOW, WALL));

        assertEquals("Owning", step.state().getClass().getSimpleName(), step.toString());
        long renewDue = delayOf(step, KeeperEvent.RenewDue.class);
        long deadlineDue = delayOf(step, KeeperEvent.DeadlineDue.class);
        assertTrue(renewDue < deadlineDue, "renew due in " + renewDue / MILLI + " ms, deadline in "
                + deadlineDue / MILLI + " ms: the tenure ends before its first renew is sent");
    }

    private static long delayOf(KeeperStep step, Class<? extends KeeperEvent> due) {
        return step.effects().stream().filter(KeeperEffect.Schedule.class::isInstance).map(KeeperEffect.Schedule.class::cast)
                .filter(schedule -> due.isInstance(schedule.event())).mapToLong(KeeperEffect.Schedule::delayNanos)
                .findFirst().orElseThrow(() -> new AssertionError("no " + due.getSimpleName() + " in " + step));
    }
}
