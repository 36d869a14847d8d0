package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.internal.HandoverAnswer;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Jepsen-style, from the s33 review: random interleavings of one keeper's rules against an environment that
 * answers each call once (late, failed or in any order), fires timers late, ends drains in time or
 * not, loses candidate answers, and throws in closes, abandons and change events at any point. After
 * every step: the listener's belief is the state's tenure; an owner has its deadline timer pending;
 * and a keeper that is not closed has pending the one event its phase waits for (no stall).
 *
 * <p>Deterministic: seed {@code n} replays the same trace, and a failure names its seed and the last
 * steps. CI runs {@value #SEEDS} seeds (two or three seconds); {@code -Dkeeper.seeds=N} runs more locally.
 */
class NoInterleavingBreaksKeeperBeliefDeadlineOrProgressTest {

    /** Seeds a CI run tries: enough for the rare branches (overrun drains, late answers, closes) to come up. */
    static final int SEEDS = 20_000;

    private static final long MILLI = 1_000_000L;
    private static final Instant WALL = Instant.parse("2026-12-01T12:00:00Z");
    private static final Claimant OTHER = Claimant.of(new HolderId("other"));
    private static final KeeperRules PLAIN = new KeeperRules(KeeperHarness.KEY, KeeperHarness.SELF, KeeperHarness.TTL,
            bound -> 0);

    private record Timed(long at, KeeperEvent event) {
    }

    private Random random;
    private long now;
    private long revision;
    private final List<Timed> pending = new ArrayList<>();
    private Optional<Tenure> believed = Optional.empty();
    private List<Supplier<String>> trace;

    @Test
    void noInterleavingBreaksBeliefDeadlineOrProgress() {
        List<String> broken = new ArrayList<>();
        int seeds = Integer.getInteger("keeper.seeds", SEEDS);
        for (int seed = 0; seed < seeds && broken.isEmpty(); seed++) {
            run(seed, seed % 2 == 0 ? PLAIN : HandoverRulesTest.YIELDING).ifPresent(broken::add);
        }
        assertEquals(List.of(), broken);
    }

    private Optional<String> run(long seed, KeeperRules rules) {
        random = new Random(seed);
        now = 1_000_000_000_000L;
        revision = 4;
        pending.clear();
        believed = Optional.empty();
        trace = new ArrayList<>();
        KeeperState state = new KeeperState.Idle();
        KeeperMemory memory = KeeperMemory.FRESH;
        KeeperEvent event = new KeeperEvent.Start();
        int closes = 0;
        for (int i = 0; i < 300 && !(state instanceof KeeperState.Closed); i++) {
            KeeperStep step = rules.next(state, memory, event, new EventTime(now, WALL.plusNanos(now), Optional.empty()));
            KeeperState before = state;
            KeeperEvent by = event;
            // Formatted only for a failure's report: formatting every step was most of the run time.
            trace.add(() -> before.getClass().getSimpleName() + " + " + by + " -> " + step.state() + " " + step.effects());
            Optional<String> wrong = perform(step.effects());
            state = step.state();
            memory = step.memory();
            if (wrong.isEmpty()) {
                wrong = check(state);
            }
            if (wrong.isPresent()) {
                return Optional.of("seed " + seed + ": " + wrong.get() + "\n  " + trace.subList(
                        Math.max(0, trace.size() - 12), trace.size()).stream().map(Supplier::get)
                        .collect(Collectors.joining("\n  ")));
            }
            int dice = random.nextInt(100);
            if (dice < 3 && closes < 2) {
                closes++;
                event = new KeeperEvent.Close(random.nextBoolean());
            } else if (dice < 9) {
                event = new KeeperEvent.Changed(change());
            } else if (dice < 11) {
                // Its candidacy says yes to a handover check; dagnats may grant it (ADR-046), late or never.
                event = new KeeperEvent.Expecting();
                if (random.nextBoolean()) {
                    later(new KeeperEvent.Granted(view(KeeperHarness.SELF, ++revision), now), 200);
                }
            } else if (pending.isEmpty()) {
                return Optional.empty();
            } else {
                Timed next = pending.remove(random.nextInt(pending.size()));
                now = Math.max(now, next.at()) + (random.nextInt(10) == 0 ? random.nextInt(3_000) : random.nextInt(20)) * MILLI;
                event = next.event();
            }
        }
        return Optional.empty();
    }

    private Optional<io.dagnats.leases.protocol.LeaseChange> change() {
        String kind = List.of("revoked", "expired", "acquired", "handed-over", "renewed", "released")
                .get(random.nextInt(6));
        Claimant by = random.nextBoolean() ? OTHER : KeeperHarness.SELF;
        return KeeperHarness.change(kind, random.nextInt(4) == 0 ? revision : ++revision, by);
    }

    private LeaseView view(Claimant by, long at) {
        return new LeaseView(KeeperHarness.KEY, by.holder(), by.incarnation(), new Fence(at), Optional.of(new Fence(at)),
                WALL, WALL.plusSeconds(15), KeeperHarness.TTL);
    }

    private void later(KeeperEvent event, long maxMillis) {
        pending.add(new Timed(now + random.nextInt((int) maxMillis + 1) * MILLI, event));
    }

    private Optional<String> perform(List<KeeperEffect> effects) {
        for (KeeperEffect effect : effects) {
            if (effect instanceof KeeperEffect.SendAcquire send) {
                int dice = random.nextInt(4);
                later(dice == 0 ? new KeeperEvent.CallFailed(send.call(), Optional.empty())
                        : new KeeperEvent.AcquireAnswered(send.call(), dice == 1
                                ? new Answers.Acquire.HeldByOther(view(OTHER, ++revision))
                                : new Answers.Acquire.Granted(view(KeeperHarness.SELF, ++revision))), 200);
            } else if (effect instanceof KeeperEffect.SendRenew send) {
                int dice = random.nextInt(5);
                later(dice == 0 ? new KeeperEvent.CallFailed(send.call(), Optional.empty())
                        : new KeeperEvent.RenewAnswered(send.call(), dice == 1 ? new Answers.Renew.Lost("gone")
                                : new Answers.Renew.Renewed(view(KeeperHarness.SELF, ++revision))), 200);
            } else if (effect instanceof KeeperEffect.SendRelease send) {
                later(new KeeperEvent.Released(send.call()), 200);
            } else if (effect instanceof KeeperEffect.SendHandover send) {
                int dice = random.nextInt(4);
                later(dice == 0 ? new KeeperEvent.CallFailed(send.call(), Optional.empty())
                        : new KeeperEvent.HandoverAnswered(send.call(), HandoverAnswer.values()[dice - 1]), 1_500);
            } else if (effect instanceof KeeperEffect.Schedule schedule) {
                pending.add(new Timed(now + Math.max(0, schedule.delayNanos()), schedule.event()));
            } else if (effect instanceof KeeperEffect.DrainHandlers drain) {
                later(new KeeperEvent.Drained(drain.drain(), random.nextInt(4) != 0), drain.within().toMillis());
            } else if (effect instanceof KeeperEffect.AskCandidates ask && random.nextInt(8) != 0) {
                later(new KeeperEvent.CandidatesAnswered(ask.ask(),
                        random.nextBoolean() ? List.of() : List.of(HandoverRulesTest.OLD)), ask.window().toMillis());
            } else if (effect instanceof KeeperEffect.BecomeOwner become) {
                if (believed.isPresent()) {
                    return Optional.of("became owner while still believing " + believed.get());
                }
                believed = Optional.of(become.tenure());
            } else if (effect instanceof KeeperEffect.Renew renew) {
                if (believed.isEmpty()) {
                    return Optional.of("renewed without a belief");
                }
                believed = Optional.of(renew.tenure());
            } else if (effect instanceof KeeperEffect.StopOwning) {
                if (believed.isEmpty()) {
                    return Optional.of("stopped owning twice");
                }
                believed = Optional.empty();
            } else if (effect instanceof KeeperEffect.Restate && believed.isPresent()) {
                return Optional.of("restated why ownership ended while still owner");
            }
        }
        return Optional.empty();
    }

    private boolean waits(KeeperEvent event) {
        return pending.stream().anyMatch(timed -> timed.event().equals(event));
    }

    private boolean waitsForCall(long call) {
        return pending.stream().map(Timed::event).anyMatch(event -> event instanceof KeeperEvent.AcquireAnswered a
                && a.call() == call || event instanceof KeeperEvent.RenewAnswered r && r.call() == call
                || event instanceof KeeperEvent.CallFailed f && f.call() == call
                || event instanceof KeeperEvent.Released d && d.call() == call
                || event instanceof KeeperEvent.HandoverAnswered h && h.call() == call);
    }

    private Optional<String> check(KeeperState state) {
        if (!believed.equals(state.tenure())) {
            return Optional.of("the listener believes " + believed + " but the phase is " + state);
        }
        long timers = state instanceof KeeperState.Owner owner ? owner.timers()
                : state instanceof KeeperState.Choosing choosing ? choosing.timers() : -1;
        if (timers >= 0 && !waits(new KeeperEvent.DeadlineDue(timers))) {
            return Optional.of("an owner phase without its deadline timer: " + state);
        }
        if (state instanceof KeeperState.AwaitingCall awaiting && !waitsForCall(awaiting.call())) {
            return Optional.of("stalled: no outcome of call " + awaiting.call() + " can come: " + state);
        }
        if (state instanceof KeeperState.AwaitingDrain awaiting && pending.stream().noneMatch(timed -> timed.event()
                instanceof KeeperEvent.Drained drained && drained.drain() == awaiting.drain())) {
            return Optional.of("stalled: drain " + awaiting.drain() + " never ends: " + state);
        }
        if (state instanceof KeeperState.Waiting waiting && !waits(new KeeperEvent.Wake(waiting.wake()))) {
            return Optional.of("stalled: no wake " + waiting.wake());
        }
        if (state instanceof KeeperState.Unsure unsure && !waits(new KeeperEvent.ResolveDue(unsure.retry()))) {
            return Optional.of("stalled: no resolve timer " + unsure.retry());
        }
        return Optional.empty();
    }
}
