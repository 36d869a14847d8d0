package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.internal.HandoverAnswer;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every kind of event, with the id in flight and a stale one, and answers below, at and above the
 * floor (granted, lost, held by another), fed to every phase of {@link KeeperRules}, with no floor
 * and with one: nothing throws, no phase still owns after its deadline's timer once the deadline
 * passed, an answered call (a release's outcome included) is never waited on
 * again, an owner phase that ends says so, a drain or release waited for was asked for, the end of
 * a drain other than the one a phase waits for (an earlier tenure's) changes nothing, and a keeper
 * that is neither owner nor waiting on a call or a drain has a wake pending, or is closed; and no
 * owner phase sends a handover in the same step in which it still owns (ADR-042).
 */
class KeeperCannotStallTest {

    private static final long NOW = 1_000_000_000_000L;
    private static final long MILLI = 1_000_000L;
    private static final Instant WALL = Instant.parse("2026-12-01T12:00:00Z");
    private static final KeeperRules RULES = new KeeperRules(KeeperHarness.KEY, KeeperHarness.SELF,
            KeeperHarness.TTL, bound -> 0);
    private static final long TTL_NANOS = KeeperHarness.TTL.duration().toNanos();
    private static final Claimant OTHER = Claimant.of(new HolderId("other"));
    private static final Claimant TWIN = Claimant.of(KeeperHarness.ME, new Incarnation("run-2"));
    /** Start 5, fence 10: the floor of the rows that have one. */
    private static final Tenure TENURE = Tenure.begin(KeeperHarness.KEY, KeeperHarness.ME, new Fence(5),
            NOW - 1_000 * MILLI, KeeperHarness.TTL).renewed(new Fence(10), NOW - 1_000 * MILLI, KeeperHarness.TTL);
    private static final Tenure PAST = Tenure.begin(KeeperHarness.KEY, KeeperHarness.ME, new Fence(5),
            NOW - TTL_NANOS, KeeperHarness.TTL).renewed(new Fence(10), NOW - TTL_NANOS, KeeperHarness.TTL);

    /** Ids the rows' steps give new calls and timers: none is the 1 in flight or the stale 9. */
    private static final KeeperMemory MEMORY = KeeperMemory.FRESH.withNextId(100);

    private static List<KeeperState> states() {
        return List.of(new KeeperState.Idle(), new KeeperState.Waiting(1), new KeeperState.Acquiring(1, false),
                new KeeperState.Acquiring(1, true), new KeeperState.Proving(new Fence(5), new Fence(10), 1, NOW),
                new KeeperState.Proving(new Fence(5), new Fence(8), 1, NOW - TTL_NANOS),
                new KeeperState.Owning(TENURE, 1), new KeeperState.Owning(PAST, 1),
                new KeeperState.Renewing(TENURE, 1, new Fence(10), 1, NOW - 300 * MILLI),
                new KeeperState.Renewing(PAST, 1, new Fence(10), 1, NOW - TTL_NANOS),
                new KeeperState.Renewing(TENURE, 1, new Fence(7), 1, NOW - 300 * MILLI),
                new KeeperState.Unsure(TENURE, 1, 1), new KeeperState.Resolving(TENURE, 1, 1),
                new KeeperState.Resolving(PAST, 1, 1), new KeeperState.Closing(1, true, Optional.of(new Fence(10))),
                new KeeperState.Closing(1, false, Optional.empty()), new KeeperState.Draining(new Fence(10), 1),
                new KeeperState.Releasing(1), new KeeperState.Closed(), new KeeperState.Choosing(TENURE, 1, 1),
                new KeeperState.Choosing(PAST, 1, 1),
                new KeeperState.Yielding(new Fence(5), new Fence(10), HandoverRulesTest.OLD, 1, false),
                new KeeperState.Yielding(new Fence(5), new Fence(10), HandoverRulesTest.OLD, 1, true),
                new KeeperState.HandingOver(new Fence(5), new Fence(10), HandoverRulesTest.OLD, 1, false),
                new KeeperState.HandingOver(new Fence(5), new Fence(10), HandoverRulesTest.OLD, 1, true));
    }

    private static List<KeeperEvent> events() {
        List<KeeperEvent> events = new ArrayList<>(List.of(new KeeperEvent.Start(), new KeeperEvent.Close(true),
                new KeeperEvent.Close(false), new KeeperEvent.Changed(Optional.empty())));
        for (long id : new long[] {1, 9}) {
            events.addAll(List.of(new KeeperEvent.Drained(id, true), new KeeperEvent.Drained(id, false),
                    new KeeperEvent.Wake(id), new KeeperEvent.RenewDue(id),
                    new KeeperEvent.DeadlineDue(id), new KeeperEvent.ResolveDue(id),
                    new KeeperEvent.CallFailed(id, Optional.empty()), new KeeperEvent.CallFailed(id, Optional.of("no"))));
            for (long revision : new long[] {4, 7, 10, 12}) {
                events.addAll(List.of(
                        new KeeperEvent.AcquireAnswered(id, new Answers.Acquire.Granted(view(KeeperHarness.SELF, revision, 5))),
                        new KeeperEvent.AcquireAnswered(id, new Answers.Acquire.Granted(view(KeeperHarness.SELF, revision, revision))),
                        new KeeperEvent.AcquireAnswered(id, new Answers.Acquire.Granted(view(TWIN, revision, revision))),
                        new KeeperEvent.AcquireAnswered(id, new Answers.Acquire.HeldByOther(view(OTHER, revision, revision))),
                        new KeeperEvent.RenewAnswered(id, new Answers.Renew.Renewed(view(KeeperHarness.SELF, revision, 5)))));
            }
            events.add(new KeeperEvent.RenewAnswered(id, new Answers.Renew.Lost("gone")));
            events.add(new KeeperEvent.Released(id));
            for (HandoverAnswer answer : HandoverAnswer.values()) {
                events.add(new KeeperEvent.HandoverAnswered(id, answer));
            }
            events.add(new KeeperEvent.CandidatesAnswered(id, List.of()));
            events.add(new KeeperEvent.CandidatesAnswered(id, List.of(HandoverRulesTest.OLD)));
        }
        events.add(new KeeperEvent.Expecting());
        events.add(new KeeperEvent.Expecting(false)); // a yes to a dagnats before ADR-046: no grant comes
        // dagnats' grant of a yes (ADR-046): of a new tenure or not, this process's or a twin's, fresh or too late.
        for (long revision : new long[] {4, 10, 12}) {
            for (long saidAt : new long[] {NOW, NOW - KeeperHarness.TTL.duration().toNanos()}) {
                events.add(new KeeperEvent.Granted(view(KeeperHarness.SELF, revision, revision), saidAt));
                events.add(new KeeperEvent.Granted(view(KeeperHarness.SELF, revision, 5), saidAt));
                events.add(new KeeperEvent.Granted(view(TWIN, revision, revision), saidAt));
            }
        }
        for (String kind : List.of("released", "revoked", "expired", "renewed", "acquired", "handed-over")) {
            for (long sequence : new long[] {3, 15}) {
                events.add(new KeeperEvent.Changed(KeeperHarness.change(kind, sequence, OTHER)));
                events.add(new KeeperEvent.Changed(KeeperHarness.change(kind, sequence, KeeperHarness.SELF)));
            }
        }
        return events;
    }

    private static LeaseView view(Claimant by, long revision, long tenure) {
        return new LeaseView(KeeperHarness.KEY, by.holder(), by.incarnation(), new Fence(revision),
                Optional.of(new Fence(tenure)), WALL, WALL.plusSeconds(10), KeeperHarness.TTL);
    }

    @Test
    void noEventLeavesAKeeperStalled() {
        List<String> broken = new ArrayList<>();
        int rows = 0;
        // Today's rules, and an owner that yields to an older version (ADR-042): the same table for both.
        for (KeeperRules rules : List.of(RULES, HandoverRulesTest.YIELDING)) {
            for (Optional<Fence> floor : List.of(Optional.<Fence>empty(), Optional.of(new Fence(10)))) {
                // With and without a yes just said (ADR-046: a handed-over event then waits for the grant).
                for (KeeperMemory memory : List.of(MEMORY, MEMORY.withSaidYes(NOW))) {
                    for (KeeperState state : states()) {
                        for (KeeperEvent event : events()) {
                            rows++;
                            String row = state + " + " + event + " (floor " + floor + ", yes " + memory.saidYes() + "): ";
                            try {
                                KeeperStep step = rules.next(state, memory, event, new EventTime(NOW, WALL, floor));
                                check(state, event, step).ifPresent(problem -> broken.add(row + problem));
                            } catch (RuntimeException thrown) {
                                broken.add(row + "threw " + thrown);
                            }
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), broken.subList(0, Math.min(10, broken.size())), broken.size() + " of " + rows + " rows");
    }

    private static Optional<String> check(KeeperState state, KeeperEvent event, KeeperStep step) {
        KeeperState next = step.state();
        Optional<Long> answered = answers(state, event).filter(call -> inFlight(state).equals(Optional.of(call)));
        if (answered.isPresent() && inFlight(next).equals(answered)) {
            return Optional.of("still waits on the answered call " + answered.get() + ": " + next);
        }
        boolean stops = step.effects().stream().anyMatch(KeeperEffect.StopOwning.class::isInstance);
        if (event.equals(new KeeperEvent.DeadlineDue(1)) && next.tenure().isPresent()
                && state.tenure().filter(tenure -> !tenure.actingAsOwner(NOW)).isPresent()) {
            return Optional.of("still owner after its deadline timer, the deadline passed: " + next);
        }
        if (state.tenure().isPresent() && next.tenure().isEmpty() && !stops) {
            return Optional.of("the owner phase ended without StopOwning: " + next);
        }
        if (next instanceof KeeperState.Waiting waiting && !next.equals(state) && step.effects().stream()
                .noneMatch(effect -> effect instanceof KeeperEffect.Schedule schedule
                        && schedule.event().equals(new KeeperEvent.Wake(waiting.wake())))) {
            return Optional.of("waits for a wake nobody scheduled: " + step.effects());
        }
        if (event instanceof KeeperEvent.Drained drained && !(state instanceof KeeperState.AwaitingDrain waits
                && waits.drain() == drained.drain()) && !(next.equals(state) && step.effects().isEmpty())) {
            return Optional.of("the end of a drain it does not wait for moved it: " + next + " " + step.effects());
        }
        if (next instanceof KeeperState.AwaitingDrain waits && !(state instanceof KeeperState.AwaitingDrain was
                && was.drain() == waits.drain()) && step.effects().stream().noneMatch(effect -> effect
                        instanceof KeeperEffect.DrainHandlers drain && drain.drain() == waits.drain())) {
            return Optional.of("waits for a drain nobody asked for: " + step.effects());
        }
        if (next instanceof KeeperState.Releasing releasing && !next.equals(state) && step.effects().stream()
                .noneMatch(effect -> effect instanceof KeeperEffect.SendRelease send && send.call() == releasing.call())) {
            return Optional.of("waits for a release nobody sent: " + step.effects());
        }
        if (!(state instanceof KeeperState.Yielding) && step.effects().stream()
                .anyMatch(KeeperEffect.SendHandover.class::isInstance)) {
            return Optional.of("sent a handover before ownership ended and the work drained: " + step.effects());
        }
        if (next instanceof KeeperState.HandingOver handing && !(state instanceof KeeperState.HandingOver)
                && step.effects().stream().noneMatch(effect -> effect instanceof KeeperEffect.SendHandover send
                        && send.call() == handing.call())) {
            return Optional.of("waits for a handover nobody sent: " + step.effects());
        }
        boolean pending = next instanceof KeeperState.Waiting || next.tenure().isPresent() || inFlight(next).isPresent()
                || next instanceof KeeperState.Draining || next instanceof KeeperState.Closed
                || next instanceof KeeperState.Yielding
                || next instanceof KeeperState.Idle;
        return pending ? Optional.empty() : Optional.of("nothing pending: " + next);
    }

    /** The call an event is the outcome of, when it is of the kind the state sent: an acquire, a renew or a release. */
    private static Optional<Long> answers(KeeperState state, KeeperEvent event) {
        boolean acquires = state instanceof KeeperState.Acquiring || state instanceof KeeperState.Resolving
                || state instanceof KeeperState.Closing;
        boolean renews = state instanceof KeeperState.Proving || state instanceof KeeperState.Renewing
                || state instanceof KeeperState.Closing;
        if (event instanceof KeeperEvent.AcquireAnswered answered && acquires) {
            return Optional.of(answered.call());
        }
        if (event instanceof KeeperEvent.RenewAnswered answered && renews) {
            return Optional.of(answered.call());
        }
        if (event instanceof KeeperEvent.HandoverAnswered answered && state instanceof KeeperState.HandingOver) {
            return Optional.of(answered.call());
        }
        if (event instanceof KeeperEvent.Released released && state instanceof KeeperState.Releasing) {
            return Optional.of(released.call());
        }
        // A release's failure comes back as Released, as its answer does: the runner sends no CallFailed for it.
        return event instanceof KeeperEvent.CallFailed failed && !(state instanceof KeeperState.Releasing)
                ? Optional.of(failed.call()) : Optional.empty();
    }

    /** The call a state waits on. */
    private static Optional<Long> inFlight(KeeperState state) {
        if (state instanceof KeeperState.Acquiring acquiring) {
            return Optional.of(acquiring.call());
        }
        if (state instanceof KeeperState.Proving proving) {
            return Optional.of(proving.call());
        }
        if (state instanceof KeeperState.Renewing renewing) {
            return Optional.of(renewing.call());
        }
        if (state instanceof KeeperState.Resolving resolving) {
            return Optional.of(resolving.call());
        }
        return state instanceof KeeperState.AwaitingCall awaiting ? Optional.of(awaiting.call()) : Optional.empty();
    }
}
