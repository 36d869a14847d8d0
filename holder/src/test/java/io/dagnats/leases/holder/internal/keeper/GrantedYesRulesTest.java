package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * dagnats' grant of a successor's yes (ADR-046) as a table, through the pure {@link KeeperRules} of
 * {@link HandoverRulesTest}: taken only while waiting, acquiring, or proving that very write, only
 * for a new tenure of this very process, and only while a deadline counted from the yes is ahead.
 */
class GrantedYesRulesTest {

    private static final long NOW = 1_000_000_000_000L;
    private static final long MILLI = 1_000_000L;
    private static final Instant WALL = Instant.parse("2026-12-01T12:00:00Z");

    static Stream<Arguments> transitions() {
        Tenure tenure = Tenure.begin(KeeperHarness.KEY, KeeperHarness.ME, new Fence(5), NOW - 1_000 * MILLI,
                KeeperHarness.TTL).renewed(new Fence(6), NOW - 1_000 * MILLI, KeeperHarness.TTL);
        KeeperState owning = new KeeperState.Owning(tenure, 1);
        KeeperState handing = new KeeperState.HandingOver(new Fence(5), new Fence(6), HandoverRulesTest.OLD, 1, false);
        return Stream.of(
                row("granted its yes while waiting: owner at once, timers from the yes (ADR-046)",
                        new KeeperState.Waiting(1), grant(20, 20, KeeperHarness.SELF, 100), "Owning",
                        "BecomeOwner 20 from 20", "Schedule RenewDue 4900ms", "Schedule DeadlineDue 14650ms", "AskCandidates"),
                row("granted while an acquire is in flight: owner at once", new KeeperState.Acquiring(1, false),
                        grant(20, 20, KeeperHarness.SELF, 100), "Owning", "BecomeOwner 20 from 20",
                        "Schedule RenewDue 4900ms", "Schedule DeadlineDue 14650ms", "AskCandidates"),
                row("granted while proving that very write: owner, its renew still in flight",
                        new KeeperState.Proving(new Fence(20), new Fence(20), 3, NOW), grant(20, 20, KeeperHarness.SELF, 100),
                        "Renewing", "BecomeOwner 20 from 20", "Schedule DeadlineDue 14650ms"),
                row("a grant while proving another write changes nothing",
                        new KeeperState.Proving(new Fence(21), new Fence(21), 3, NOW), grant(20, 20, KeeperHarness.SELF, 100),
                        "Proving"),
                row("a grant naming another incarnation of this holder id is not this process's",
                        new KeeperState.Waiting(1), grant(20, 20, Claimant.of(KeeperHarness.ME, new Incarnation("run-2")), 100),
                        "Waiting"),
                row("a grant that continues an older tenure is no handover's: not taken", new KeeperState.Waiting(1),
                        grant(20, 19, KeeperHarness.SELF, 100), "Waiting"),
                row("a grant whose deadline from the yes has passed is not acted on", new KeeperState.Waiting(1),
                        grant(20, 20, KeeperHarness.SELF, 15_000), "Waiting"),
                row("a grant to an owner changes nothing", owning, grant(20, 20, KeeperHarness.SELF, 100), "Owning"),
                row("a grant while handing over changes nothing", handing, grant(20, 20, KeeperHarness.SELF, 100),
                        "HandingOver"));
    }

    /** dagnats' grant of a lease at {@code revision} (tenure {@code tenure}) naming {@code to}, to a yes said {@code agoMs} ago. */
    private static KeeperEvent grant(long revision, long tenure, Claimant to, long agoMs) {
        Instant wall = Instant.now();
        return new KeeperEvent.Granted(new LeaseView(KeeperHarness.KEY, to.holder(), to.incarnation(), new Fence(revision),
                Optional.of(new Fence(tenure)), wall, wall.plusSeconds(15), KeeperHarness.TTL), NOW - agoMs * MILLI);
    }

    private static Arguments row(String rule, KeeperState state, KeeperEvent event, String next, String... effects) {
        return Arguments.of(rule, state, event, next, List.of(effects));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transitions")
    void eachTransition(String rule, KeeperState state, KeeperEvent event, String next, List<String> effects) {
        KeeperStep step = HandoverRulesTest.YIELDING.next(state, KeeperMemory.FRESH.withNextId(100), event,
                new EventTime(NOW, WALL));

        assertEquals(next, step.state().getClass().getSimpleName(), rule);
        assertEquals(effects, step.effects().stream().map(HandoverRulesTest::describe).toList(), rule);
    }
}
