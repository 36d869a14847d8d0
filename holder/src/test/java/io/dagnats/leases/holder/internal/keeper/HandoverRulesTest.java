package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.Candidate;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import io.dagnats.leases.holder.Succession;
import io.dagnats.leases.holder.internal.HandoverAnswer;
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
 * The handover rules as a table (ADR-042), through the pure {@link KeeperRules} of an owner on
 * version 1.0 under oldest-version-first (brakes 10 s present, 60 s between yields, work bound
 * 2 s): ownership always ends (StopOwning) before a handover is sent, a handover that does not
 * land is owned again only through a renew, and a successor owns on dagnats' grant of its yes (ADR-046),
 * its deadline counted from the yes, or else after its own renew.
 */
class HandoverRulesTest {

    private static final long NOW = 1_000_000_000_000L;
    private static final long MILLI = 1_000_000L;
    private static final Instant WALL = Instant.parse("2026-12-01T12:00:00Z");
    private static final KeepOptions OPTIONS = KeepOptions.defaults().candidacy(0, "1.0")
            .succession(Succession.oldestVersionFirst()).minCandidacy(Duration.ofSeconds(10))
            .yieldInterval(Duration.ofSeconds(60)).handoverBound(Duration.ofSeconds(2));
    static final KeeperRules YIELDING = new KeeperRules(KeeperHarness.KEY, KeeperHarness.SELF, KeeperHarness.TTL,
            bound -> 0, OPTIONS);
    private static final KeeperRules RULES = YIELDING;
    private static final Tenure TENURE = Tenure.begin(KeeperHarness.KEY, KeeperHarness.ME, new Fence(5),
            NOW - 1_000 * MILLI, KeeperHarness.TTL).renewed(new Fence(6), NOW - 1_000 * MILLI, KeeperHarness.TTL);

    /** The same tenure, its deadline passed. */
    private static final Tenure PAST = Tenure.begin(KeeperHarness.KEY, KeeperHarness.ME, new Fence(5),
            NOW - KeeperHarness.TTL.duration().toNanos(), KeeperHarness.TTL);

    static final Candidate OLD = candidate("old", "0.9", 20, false);
    private static final Candidate NEW = candidate("new", "1.1", 20, false);
    private static final Candidate OLD_BUT_FRESH = candidate("fresh", "0.9", 1, false);
    private static final Candidate OLD_OWNER = candidate("owner", "0.5", 20, true);
    private static final Claimant OLD_CLAIMANT = Claimant.of(OLD.holder(), OLD.incarnation());

    static Candidate candidate(String holder, String version, long waitedSeconds, boolean owner) {
        return new Candidate(new HolderId(holder), new Incarnation(holder + "-run"), 0, version,
                Duration.ofSeconds(waitedSeconds), owner);
    }

    private static KeeperEvent offered(long ask, Candidate... candidates) {
        return new KeeperEvent.CandidatesAnswered(ask, List.of(candidates));
    }

    private static KeeperEvent changed(String event, long sequence, Claimant by) {
        return new KeeperEvent.Changed(KeeperHarness.change(event, sequence, by));
    }

    static Stream<Arguments> transitions() {
        KeeperState owning = new KeeperState.Owning(TENURE, 1);
        KeeperState yielding = new KeeperState.Yielding(new Fence(5), new Fence(6), OLD, 1, false);
        KeeperState closingYield = new KeeperState.Yielding(new Fence(5), new Fence(6), OLD, 1, true);
        KeeperState handing = new KeeperState.HandingOver(new Fence(5), new Fence(6), OLD, 1, false);
        KeeperState closingHand = new KeeperState.HandingOver(new Fence(5), new Fence(6), OLD, 1, true);
        KeeperState choosing = new KeeperState.Choosing(TENURE, 1, 1);
        KeeperState choosingTooLong = new KeeperState.Choosing(PAST, 1, 1);
        return Stream.of(
                row("an older version that waited long enough: step down first, then drain", owning, offered(1, OLD),
                        "Yielding", "Log", "StopOwning PREFERRED_CANDIDATE", "DrainHandlers 2000ms #100"),
                row("a newer version is no reason to yield", owning, offered(1, NEW), "Owning"),
                row("an older version present for less than minCandidacy is not yet preferred", owning,
                        offered(1, OLD_BUT_FRESH), "Owning"),
                row("an answer as owner is never a successor", owning, offered(1, OLD_OWNER), "Owning"),
                row("nobody answered", owning, offered(1), "Owning"),
                row("drained: one handover, of the fence held", yielding, new KeeperEvent.Drained(1, true), "HandingOver",
                        "SendHandover 6 old"),
                row("work past its bound: no handover; renew to own again", yielding, new KeeperEvent.Drained(1, false),
                        "Proving", "Log", "SendRenew 6"),
                row("work past its bound at close: left to the TTL", closingYield, new KeeperEvent.Drained(1, false),
                        "Closed", "Log"),
                row("the end of another drain (an earlier tenure's) hands nothing over", yielding,
                        new KeeperEvent.Drained(9, true), "Yielding"),
                row("the end of another drain at close hands nothing over", closingYield,
                        new KeeperEvent.Drained(9, true), "Yielding"),
                row("the end of another drain past its bound renews nothing", yielding,
                        new KeeperEvent.Drained(9, false), "Yielding"),
                row("the lease ended while draining: a waiter", yielding, changed("revoked", 9, KeeperHarness.SELF),
                        "Waiting", "Schedule Wake 0ms"),
                row("handed over: a waiter, stepping back a third of the TTL", handing,
                        new KeeperEvent.HandoverAnswered(1, HandoverAnswer.HANDED_OVER), "Waiting", "Schedule Wake 5000ms"),
                row("handed over at close: closed", closingHand,
                        new KeeperEvent.HandoverAnswered(1, HandoverAnswer.HANDED_OVER), "Closed"),
                row("no successor: not owner, renews to own again", handing,
                        new KeeperEvent.HandoverAnswered(1, HandoverAnswer.NO_SUCCESSOR), "Proving", "Log", "SendRenew 6"),
                row("no successor at close: releases", closingHand,
                        new KeeperEvent.HandoverAnswered(1, HandoverAnswer.NO_SUCCESSOR), "Releasing", "Log",
                        "SendRelease 6"),
                row("unanswered handover: a renew tells whether it landed", handing,
                        new KeeperEvent.CallFailed(1, Optional.empty()), "Proving", "SendRenew 6"),
                row("unanswered handover at close: a release tells", closingHand,
                        new KeeperEvent.CallFailed(1, Optional.empty()), "Releasing", "SendRelease 6"),
                row("lost: a waiter", handing, new KeeperEvent.HandoverAnswered(1, HandoverAnswer.LOST), "Waiting",
                        "Schedule Wake 0ms"),
                row("another call's answer changes nothing", handing,
                        new KeeperEvent.HandoverAnswered(9, HandoverAnswer.NO_SUCCESSOR), "HandingOver"),
                row("the handed-over event of its own handover changes nothing", handing,
                        changed("handed-over", 7, OLD_CLAIMANT), "HandingOver"),
                row("a close during a yield makes it a close's handover", handing, new KeeperEvent.Close(true),
                        "HandingOver"),
                row("abandon (close(false)) during a yield hands nothing over: left to the TTL", yielding,
                        new KeeperEvent.Close(false), "Closed"),
                row("abandon during a close's yield hands nothing over", closingYield, new KeeperEvent.Close(false),
                        "Closed"),
                row("abandon with a handover in flight sends nothing more, renews nothing", handing,
                        new KeeperEvent.Close(false), "Closed"),
                row("abandon while choosing stops owning and hands nothing over", choosing, new KeeperEvent.Close(false),
                        "Closed", "StopOwning ABANDONED"),
                row("close: the best waiting candidate gets it", choosing, offered(1, NEW, OLD, OLD_OWNER), "Yielding",
                        "StopOwning HANDED_OVER", "DrainHandlers 2000ms #100"),
                row("close with nobody waiting releases", choosing, offered(1), "Draining", "StopOwning RELEASED",
                        "DrainHandlers 5000ms #100"),
                row("close: another ask's answer changes nothing", choosing, offered(9, OLD), "Choosing"),
                row("close: the deadline before the candidates answered ends ownership, then drain and release",
                        choosingTooLong, new KeeperEvent.DeadlineDue(1), "Draining", "StopOwning DEADLINE_PASSED",
                        "DrainHandlers 5000ms #100"),
                row("close: an early deadline timer looks again, still owner", choosing, new KeeperEvent.DeadlineDue(1),
                        "Choosing", "Schedule DeadlineDue 13750ms"),
                row("close: another tenure's deadline timer changes nothing", choosingTooLong,
                        new KeeperEvent.DeadlineDue(9), "Choosing"),
                row("close: revoked meanwhile, told REVOKED as the owner phases tell it", choosing,
                        changed("revoked", 9, KeeperHarness.SELF), "Closed", "StopOwning REVOKED"),
                row("close: the lease ended meanwhile", choosing, changed("expired", 9, KeeperHarness.SELF), "Closed",
                        "StopOwning LOST"),
                row("handed to this process: a renew at once, owner only on its answer", new KeeperState.Waiting(1),
                        changed("handed-over", 20, KeeperHarness.SELF), "Proving", "SendRenew 20"),
                row("handed to this process while an acquire is in flight", new KeeperState.Acquiring(1, false),
                        changed("handed-over", 20, KeeperHarness.SELF), "Proving", "SendRenew 20"),
                row("handed to another incarnation of this holder id: not this process's", new KeeperState.Waiting(1),
                        changed("handed-over", 20, Claimant.of(KeeperHarness.ME, new Incarnation("run-2"))), "Waiting"),
                row("handed to another: still waiting", new KeeperState.Waiting(1),
                        changed("handed-over", 20, OLD_CLAIMANT), "Waiting"),
                row("said yes to a handover check: acquire soon even if the event is lost", new KeeperState.Waiting(1),
                        new KeeperEvent.Expecting(), "Waiting", "Schedule Wake 400ms"));
    }

    private static Arguments row(String rule, KeeperState state, KeeperEvent event, String next, String... effects) {
        return Arguments.of(rule, state, event, next, List.of(effects));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transitions")
    void eachTransition(String rule, KeeperState state, KeeperEvent event, String next, List<String> effects) {
        KeeperStep step = RULES.next(state, KeeperMemory.FRESH.withNextId(100), event, new EventTime(NOW, WALL));

        assertEquals(next, step.state().getClass().getSimpleName(), rule);
        assertEquals(effects, step.effects().stream().map(HandoverRulesTest::describe).toList(), rule);
    }

    @Test
    void anOwnerYieldsAtMostOncePerYieldInterval() {
        KeeperState owning = new KeeperState.Owning(TENURE, 1);
        KeeperMemory yieldedRecently = KeeperMemory.FRESH.withNextId(100).withYieldAt(NOW - 59_000 * MILLI);
        KeeperMemory yieldedLongAgo = KeeperMemory.FRESH.withNextId(100).withYieldAt(NOW - 60_000 * MILLI);

        KeeperStep braked = RULES.next(owning, yieldedRecently, offered(1, OLD), new EventTime(NOW, WALL));
        KeeperStep free = RULES.next(owning, yieldedLongAgo, offered(1, OLD), new EventTime(NOW, WALL));

        assertEquals(owning, braked.state(), "59 s after the last yield the brake holds");
        assertEquals("Yielding", free.state().getClass().getSimpleName(), "60 s after it the owner may yield again");
        assertEquals(java.util.OptionalLong.of(NOW), free.memory().lastYield(), "and the brake counts from now");
    }

    @Test
    void aConfirmedRenewAsksTheCandidatesOnlyWhenTheStrategyYields() {
        KeeperState renewing = new KeeperState.Renewing(TENURE, 1, new Fence(6), 1, NOW - 100 * MILLI);
        KeeperEvent renewed = new KeeperEvent.RenewAnswered(1, KeeperHarness.renewed(7, 5));
        KeeperRules none = new KeeperRules(KeeperHarness.KEY, KeeperHarness.SELF, KeeperHarness.TTL, bound -> 0);

        assertEquals(1, RULES.next(renewing, KeeperMemory.FRESH, renewed, new EventTime(NOW, WALL)).effects().stream()
                .filter(KeeperEffect.AskCandidates.class::isInstance).count(), "oldest version first asks");
        assertEquals(0, none.next(renewing, KeeperMemory.FRESH, renewed, new EventTime(NOW, WALL)).effects().stream()
                .filter(KeeperEffect.AskCandidates.class::isInstance).count(), "none never yields, so never asks");
    }

    @Test
    void anAbandonBeforeTheLeaseMovedRestatesOnlyAStopThatSaidItWould() {
        KeeperState closingYield = new KeeperState.Yielding(new Fence(5), new Fence(6), OLD, 1, true);
        KeeperState draining = new KeeperState.Draining(new Fence(6), 1);
        KeeperEvent abandon = new KeeperEvent.Close(false);
        KeeperMemory handedOver = KeeperMemory.FRESH.withToldStop(Optional.of(StopReason.HANDED_OVER));
        KeeperMemory deadline = KeeperMemory.FRESH.withToldStop(Optional.of(StopReason.DEADLINE_PASSED));

        KeeperStep restated = RULES.next(closingYield, handedOver, abandon, new EventTime(NOW, WALL));
        assertEquals(List.of(new KeeperEffect.Restate(StopReason.ABANDONED)), restated.effects());
        assertEquals(Optional.of(StopReason.ABANDONED), restated.memory().toldStop(), "restated once");
        assertEquals(List.of(), RULES.next(draining, deadline, abandon, new EventTime(NOW, WALL)).effects(),
                "a passed deadline is still why it stopped");
    }

    static String describe(KeeperEffect effect) {
        if (effect instanceof KeeperEffect.SendRenew renew) {
            return "SendRenew " + renew.fence();
        }
        if (effect instanceof KeeperEffect.Schedule schedule) {
            return "Schedule " + schedule.event().getClass().getSimpleName() + " "
                    + Duration.ofNanos(schedule.delayNanos()).toMillis() + "ms";
        }
        if (effect instanceof KeeperEffect.StopOwning stop) {
            return "StopOwning " + stop.reason();
        }
        if (effect instanceof KeeperEffect.DrainHandlers drain) {
            return "DrainHandlers " + drain.within().toMillis() + "ms #" + drain.drain();
        }
        if (effect instanceof KeeperEffect.SendRelease release) {
            return "SendRelease " + release.held();
        }
        if (effect instanceof KeeperEffect.BecomeOwner become) {
            return "BecomeOwner " + become.tenure().fence() + " from " + become.tenure().start();
        }
        if (effect instanceof KeeperEffect.SendHandover handover) {
            return "SendHandover " + handover.held() + " " + handover.to().holder();
        }
        return effect.getClass().getSimpleName();
    }
}
