package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The keeper's transitions as a table: (state, event) to the next phase and the effects, through
 * the pure {@link KeeperRules} with a fixed clock and no jitter. No scheduler, no sleeps.
 * Calls and timers are named by ids: the rows use 1 for the one in flight, 9 for a stale one.
 */
class KeeperRulesTest {

    private static final long NOW = 1_000_000_000_000L;
    private static final Instant WALL = Instant.parse("2026-12-01T12:00:00Z");
    private static final KeeperRules RULES = new KeeperRules(KeeperHarness.KEY, KeeperHarness.SELF,
            KeeperHarness.TTL, bound -> 0);
    private static final long TTL_NANOS = KeeperHarness.TTL.duration().toNanos();
    private static final long MILLI = 1_000_000L;

    /** Owner under start 5, fence 6, confirmed by a renew sent 1 s ago. */
    private static final Tenure TENURE = Tenure.begin(KeeperHarness.KEY, KeeperHarness.ME, new Fence(5),
            NOW - 1_000 * MILLI, KeeperHarness.TTL).renewed(new Fence(6), NOW - 1_000 * MILLI, KeeperHarness.TTL);
    /** The same tenure, its deadline passed. */
    private static final Tenure PAST = Tenure.begin(KeeperHarness.KEY, KeeperHarness.ME, new Fence(5),
            NOW - TTL_NANOS, KeeperHarness.TTL);

    private static LeaseView mine(long revision, long tenure) {
        return new LeaseView(KeeperHarness.KEY, KeeperHarness.ME, Optional.of(KeeperHarness.RUN), new Fence(revision),
                Optional.of(new Fence(tenure)), WALL, WALL.plusSeconds(15), KeeperHarness.TTL);
    }

    private static LeaseView heldBy(Claimant other, long revision) {
        return new LeaseView(KeeperHarness.KEY, other.holder(), other.incarnation(), new Fence(revision),
                Optional.of(new Fence(revision)), WALL, WALL.plusSeconds(10), KeeperHarness.TTL);
    }

    private static final Claimant TWIN = Claimant.of(KeeperHarness.ME, new Incarnation("run-2"));
    private static final Claimant OTHER = Claimant.of(new HolderId("other"));

    private static KeeperEvent answered(Answers.Acquire answer) {
        return new KeeperEvent.AcquireAnswered(1, answer);
    }

    private static KeeperEvent renewAnswer(Answers.Renew answer) {
        return new KeeperEvent.RenewAnswered(1, answer);
    }

    private static KeeperEvent changed(String event, long sequence, Claimant by) {
        return new KeeperEvent.Changed(KeeperHarness.change(event, sequence, by));
    }

    private static final KeeperEvent FAILED = new KeeperEvent.CallFailed(1, Optional.empty());

    static Stream<Arguments> transitions() {
        KeeperState owning = new KeeperState.Owning(TENURE, 1);
        KeeperState renewing = new KeeperState.Renewing(TENURE, 1, new Fence(6), 1, NOW - 300 * MILLI);
        KeeperState resolving = new KeeperState.Resolving(TENURE, 1, 1);
        KeeperState proving = new KeeperState.Proving(new Fence(5), new Fence(5), 1, NOW - 100 * MILLI);
        return Stream.of(
                row("start campaigns", new KeeperState.Idle(), new KeeperEvent.Start(), "Acquiring", "SendAcquire"),
                row("the latest wake campaigns", new KeeperState.Waiting(1), new KeeperEvent.Wake(1), "Acquiring",
                        "SendAcquire"),
                row("a replaced wake does nothing", new KeeperState.Waiting(1), new KeeperEvent.Wake(9), "Waiting"),
                row("a freed key wakes a waiter", new KeeperState.Waiting(1), changed("released", 9, OTHER), "Waiting",
                        "Schedule Wake 0ms"),
                row("a renewal of the holder leaves a waiter waiting", new KeeperState.Waiting(1),
                        changed("renewed", 9, OTHER), "Waiting"),
                row("a grant of this process is proved by a renew of its own", new KeeperState.Acquiring(1, false),
                        answered(new Answers.Acquire.Granted(mine(5, 5))), "Proving", "SendRenew 5"),
                row("a grant of an earlier acquisition is proved under its tenure", new KeeperState.Acquiring(1, false),
                        answered(new Answers.Acquire.Granted(mine(8, 5))), "Proving", "SendRenew 8"),
                row("a grant naming another incarnation is no grant", new KeeperState.Acquiring(1, false),
                        answered(new Answers.Acquire.Granted(heldBy(TWIN, 5))), "Waiting", "Schedule Wake 10100ms"),
                row("held by another: wait until just after its expiry", new KeeperState.Acquiring(1, false),
                        answered(new Answers.Acquire.HeldByOther(heldBy(OTHER, 5))), "Waiting", "Schedule Wake 10100ms"),
                row("freed while the acquire was in flight: ask again at once", new KeeperState.Acquiring(1, true),
                        answered(new Answers.Acquire.HeldByOther(heldBy(OTHER, 5))), "Waiting", "Schedule Wake 0ms"),
                row("a freed key is remembered while an acquire is in flight", new KeeperState.Acquiring(1, false),
                        changed("expired", 9, OTHER), "Acquiring"),
                row("an answer to another call changes nothing", new KeeperState.Acquiring(1, false),
                        new KeeperEvent.AcquireAnswered(9, new Answers.Acquire.Granted(mine(5, 5))), "Acquiring"),
                row("a failed acquire is retried", new KeeperState.Acquiring(1, false), FAILED, "Waiting",
                        "Schedule Wake 200ms"),
                row("the proving renew makes an owner", proving, renewAnswer(new Answers.Renew.Renewed(mine(6, 5))),
                        "Owning", "BecomeOwner 5/6", "Schedule RenewDue 4900ms", "Schedule DeadlineDue 14650ms"),
                row("a proving renew lost is no ownership", proving, renewAnswer(new Answers.Renew.Lost("gone")),
                        "Waiting", "Log", "Schedule Wake 0ms"),
                row("a proving renew unanswered: an acquire will tell", proving, FAILED, "Waiting", "Schedule Wake 200ms"),
                row("the grant revoked before its renew answered", proving, changed("revoked", 7, OTHER), "Waiting",
                        "Schedule Wake 0ms"),
                row("the renew timer renews", owning, new KeeperEvent.RenewDue(1), "Renewing", "SendRenew 6"),
                row("a timer of an older tenure does nothing", owning, new KeeperEvent.RenewDue(9), "Owning"),
                row("a renewal keeps the tenure", renewing, renewAnswer(new Answers.Renew.Renewed(mine(7, 5))), "Owning",
                        "Renew 5/7", "Schedule RenewDue 4700ms", "Schedule DeadlineDue 14450ms"),
                row("a lost renew stops at once", renewing, renewAnswer(new Answers.Renew.Lost("gone")), "Waiting",
                        "Log", "StopOwning LOST", "Schedule Wake 0ms"),
                row("an unanswered renew is resolved, not given up", renewing, FAILED, "Resolving", "SendAcquire"),
                row("the same acquisition: renew where the unanswered renew left it", resolving,
                        answered(new Answers.Acquire.Granted(mine(7, 5))), "Renewing", "SendRenew 7"),
                row("a new acquisition after an unanswered renew: the old tenure ended", resolving,
                        answered(new Answers.Acquire.Granted(mine(9, 9))), "Proving", "Log", "StopOwning LOST",
                        "SendRenew 9"),
                row("held by another after an unanswered renew", resolving,
                        answered(new Answers.Acquire.HeldByOther(heldBy(OTHER, 9))), "Waiting", "Log",
                        "StopOwning LOST", "Schedule Wake 10100ms"),
                row("an unanswered resolve is tried again, still owner", resolving, FAILED, "Unsure",
                        "Schedule ResolveDue 200ms"),
                row("the retry resolves", new KeeperState.Unsure(TENURE, 1, 1), new KeeperEvent.ResolveDue(1),
                        "Resolving", "SendAcquire"),
                row("the deadline stops an owner and campaigns", new KeeperState.Owning(PAST, 1),
                        new KeeperEvent.DeadlineDue(1), "Acquiring", "StopOwning DEADLINE_PASSED", "SendAcquire"),
                row("the deadline stops a renewing owner; its renew may still prove time",
                        new KeeperState.Renewing(PAST, 1, new Fence(5), 1, NOW - TTL_NANOS), new KeeperEvent.DeadlineDue(1),
                        "Proving", "StopOwning DEADLINE_PASSED"),
                row("the deadline stops an owner resolving; the acquire goes on",
                        new KeeperState.Resolving(PAST, 1, 1), new KeeperEvent.DeadlineDue(1), "Acquiring",
                        "StopOwning DEADLINE_PASSED"),
                row("a revoke above the tenure stops and steps back a third of the TTL", owning,
                        changed("revoked", 7, OTHER), "Waiting", "Log", "StopOwning REVOKED", "Schedule Wake 5000ms"),
                row("another incarnation's renewal above the tenure: the end was missed", owning,
                        changed("renewed", 8, TWIN), "Waiting", "Log", "StopOwning LOST", "Schedule Wake 0ms"),
                row("this process's own renewal leaves it owner", renewing, changed("renewed", 7, KeeperHarness.SELF),
                        "Renewing"),
                row("an end older than the tenure leaves it owner", owning, changed("released", 4, OTHER), "Owning"),
                row("close asks who waits, still owner, before it lets the lease go (ADR-042)", owning,
                        new KeeperEvent.Close(true), "Choosing", "AskCandidates"),
                row("abandon leaves it to the TTL", owning, new KeeperEvent.Close(false), "Closed",
                        "StopOwning ABANDONED"),
                row("close with a renew in flight waits for it", renewing, new KeeperEvent.Close(true), "Closing",
                        "StopOwning RELEASED"),
                row("close releases what the renew in flight wrote", new KeeperState.Closing(1, true,
                        Optional.of(new Fence(6))), renewAnswer(new Answers.Renew.Renewed(mine(7, 5))), "Draining 7 #1",
                        "DrainHandlers 5s #1"),
                row("abandon releases nothing a call in flight shows", new KeeperState.Closing(1, false,
                        Optional.of(new Fence(6))), answered(new Answers.Acquire.Granted(mine(7, 5))), "Closed"),
                row("an unanswered call at close releases the fence last known", new KeeperState.Closing(1, true,
                        Optional.of(new Fence(6))), FAILED, "Draining 6 #1", "DrainHandlers 5s #1"),
                row("close while proving a grant waits for the renew", proving, new KeeperEvent.Close(true), "Closing"),
                row("close releases the grant a proving renew left unanswered", new KeeperState.Closing(1, true,
                        Optional.of(new Fence(5))), FAILED, "Draining 5 #1", "DrainHandlers 5s #1"),
                row("a waiter closes at once", new KeeperState.Waiting(1), new KeeperEvent.Close(true), "Closed"),
                row("drained handlers let the release go", new KeeperState.Draining(new Fence(6), 9),
                        new KeeperEvent.Drained(9, true), "Releasing", "SendRelease 1 6"),
                row("a handler past the drain's bound leaves the key to the TTL", new KeeperState.Draining(new Fence(6), 9),
                        new KeeperEvent.Drained(9, false), "Closed", "Log"),
                row("the end of another drain (an earlier tenure's) releases nothing",
                        new KeeperState.Draining(new Fence(6), 9), new KeeperEvent.Drained(1, true), "Draining 6 #9"),
                row("the end of another drain past its bound changes nothing",
                        new KeeperState.Draining(new Fence(6), 9), new KeeperEvent.Drained(1, false), "Draining 6 #9"),
                row("the release's outcome closes", new KeeperState.Releasing(1), new KeeperEvent.Released(1), "Closed"),
                row("another release's outcome changes nothing", new KeeperState.Releasing(1),
                        new KeeperEvent.Released(2), "Releasing"),
                row("a close while releasing changes nothing", new KeeperState.Releasing(1),
                        new KeeperEvent.Close(true), "Releasing"),
                row("a close while draining changes nothing", new KeeperState.Draining(new Fence(6), 9),
                        new KeeperEvent.Close(true), "Draining 6 #9"),
                row("an abandon while draining releases nothing: left to the TTL",
                        new KeeperState.Draining(new Fence(6), 9), new KeeperEvent.Close(false), "Closed"),
                row("an abandon while a close waits for a call releases nothing it shows",
                        new KeeperState.Closing(1, true, Optional.of(new Fence(6))), new KeeperEvent.Close(false),
                        "Closing"),
                row("then the call's answer closes, releasing nothing", new KeeperState.Closing(1, false,
                        Optional.of(new Fence(6))), renewAnswer(new Answers.Renew.Renewed(mine(7, 5))), "Closed"));
    }

    @Test
    void anAbandonTurnsAClosesReleaseOff() {
        KeeperStep step = RULES.next(new KeeperState.Closing(1, true, Optional.of(new Fence(6))), KeeperMemory.FRESH,
                new KeeperEvent.Close(false), new EventTime(NOW, WALL));
        assertEquals(new KeeperState.Closing(1, false, Optional.of(new Fence(6))), step.state());
    }

    private static Arguments row(String rule, KeeperState state, KeeperEvent event, String next, String... effects) {
        return Arguments.of(rule, state, event, next, List.of(effects));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transitions")
    void eachTransition(String rule, KeeperState state, KeeperEvent event, String next, List<String> effects) {
        KeeperStep step = RULES.next(state, KeeperMemory.FRESH, event, new EventTime(NOW, WALL));

        String name = step.state().getClass().getSimpleName();
        assertEquals(next, step.state() instanceof KeeperState.Draining draining
                ? name + " " + draining.held() + " #" + draining.drain() : name, rule);
        assertEquals(effects, step.effects().stream().map(KeeperRulesTest::describe).toList(), rule);
    }

    private static String describe(KeeperEffect effect) {
        if (effect instanceof KeeperEffect.SendRenew renew) {
            return "SendRenew " + renew.fence();
        }
        if (effect instanceof KeeperEffect.Schedule schedule) {
            return "Schedule " + schedule.event().getClass().getSimpleName() + " "
                    + Duration.ofNanos(schedule.delayNanos()).toMillis() + "ms";
        }
        if (effect instanceof KeeperEffect.BecomeOwner become) {
            return "BecomeOwner " + become.tenure().start() + "/" + become.tenure().fence();
        }
        if (effect instanceof KeeperEffect.Renew renew) {
            return "Renew " + renew.tenure().start() + "/" + renew.tenure().fence();
        }
        if (effect instanceof KeeperEffect.StopOwning stop) {
            return "StopOwning " + stop.reason();
        }
        if (effect instanceof KeeperEffect.DrainHandlers drain) {
            return "DrainHandlers " + drain.within().toSeconds() + "s #" + drain.drain();
        }
        if (effect instanceof KeeperEffect.SendRelease release) {
            return "SendRelease " + release.call() + " " + release.held();
        }
        return effect.getClass().getSimpleName();
    }
}
