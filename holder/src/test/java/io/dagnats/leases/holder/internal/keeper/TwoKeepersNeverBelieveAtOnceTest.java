package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.holder.Candidate;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.internal.HandoverAnswer;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Jepsen-style, from the s33 review: two keepers of one key, A (yields to B's older version, hands over on
 * close) and B (hands over to A on close), each keeping its floors as a holder does, against a model of dagnats ({@link ModelledStore}: compare-and-set on the revision, TTL
 * expiry, handover only to a waiting successor, asked while the key is read so that its yes may come up
 * to 0.9 s before the write, and granted after the write, or late, or never), B's TTL a third, the
 * same or three times A's (the handed record keeps A's), with random delays on every request, write,
 * answer, event and drain, lost answers (the write may or may not land), and closes and abandons at
 * random. Judged from each keeper's own record (BecomeOwner to StopOwning): never both at once, never
 * past its own deadline, never while the model's store does not hold the key for it.
 *
 * <p>Deterministic: seed {@code n} replays the same run, and a failure names its seed and the last
 * steps. CI runs {@value #SEEDS} seeds (a few seconds); {@code -Dkeeper.seeds=N} runs more locally.
 */
class TwoKeepersNeverBelieveAtOnceTest {

    /** Seeds a CI run tries (each one some hundreds of handover attempts in all). */
    static final int SEEDS = 1_000;

    private static final long MILLI = 1_000_000L;
    private static final long T0 = 1_000_000_000_000L;
    private static final Instant WALL = Instant.parse("2026-12-01T12:00:00Z");
    private static final Claimant B = Claimant.of(HandoverRulesTest.OLD.holder(), HandoverRulesTest.OLD.incarnation());
    private static final Candidate A = new Candidate(KeeperHarness.ME, KeeperHarness.RUN, 0, "1.0", Duration.ofSeconds(20), false);

    private record Item(long at, long order, Runnable action) {
    }

    private Random random;
    private long now;
    private long order;
    private final PriorityQueue<Item> queue = new PriorityQueue<>((l, r) -> l.at != r.at ? Long.compare(l.at, r.at)
            : Long.compare(l.order, r.order));
    private List<Supplier<String>> trace;
    private Optional<String> broken;
    private ModelledStore store;
    private ModelledKeeper a;
    private ModelledKeeper b;

    @Test
    void twoKeepersNeverBelieveAtOnceNorPastTheirDeadline() {
        List<String> found = new ArrayList<>();
        int seeds = Integer.getInteger("keeper.seeds", SEEDS);
        for (int seed = 0; seed < seeds && found.isEmpty(); seed++) {
            run(seed).ifPresent(found::add);
        }
        assertEquals(List.of(), found);
    }

    private Optional<String> run(long seed) {
        random = new Random(seed);
        now = T0;
        queue.clear();
        trace = new ArrayList<>();
        broken = Optional.empty();
        store = new ModelledStore(this::broadcast, T0, WALL);
        a = keeper(HandoverRulesTest.YIELDING, KeeperHarness.SELF);
        LeaseTtl ttlOfB = LeaseTtl.ofSeconds(KeeperHarness.TTL.seconds() * List.of(1, 3, 9).get(random.nextInt(3)) / 3);
        b = keeper(new KeeperRules(KeeperHarness.KEY, B, ttlOfB, bound -> 0, KeepOptions.defaults().candidacy(0, "0.9")), B);
        at(0, () -> a.on(new KeeperEvent.Start()));
        at(random.nextInt(300), () -> b.on(new KeeperEvent.Start()));
        for (ModelledKeeper keeper : List.of(a, b)) {
            if (random.nextInt(3) == 0) {
                long cutAt = random.nextInt(120_000);
                long cutFor = random.nextInt(25_000);
                at(cutAt, () -> keeper.downUntil = now + cutFor * MILLI);
            }
            if (random.nextBoolean()) {
                boolean release = random.nextInt(4) != 0;
                at(random.nextInt(120_000), () -> keeper.on(new KeeperEvent.Close(release)));
            }
        }
        while (!queue.isEmpty() && broken.isEmpty() && now < T0 + 200_000 * MILLI) {
            Item item = queue.poll();
            now = item.at();
            store.expire(now);
            item.action().run();
            judge();
        }
        return broken.map(why -> "seed " + seed + ": " + why + "\n  "
                + trace.subList(Math.max(0, trace.size() - 25), trace.size()).stream().map(Supplier::get)
                        .collect(Collectors.joining("\n  ")));
    }

    private ModelledKeeper keeper(KeeperRules rules, Claimant self) {
        return new ModelledKeeper(rules, self, () -> now, T0, TwoKeepersNeverBelieveAtOnceTest::wall, trace::add,
                this::perform);
    }

    private static Instant wall(long nanos) {
        return WALL.plusNanos(nanos - T0);
    }

    private void at(long delayMillis, Runnable action) {
        queue.add(new Item(now + delayMillis * MILLI, order++, action));
    }

    private void judge() {
        for (ModelledKeeper keeper : List.of(a, b)) {
            if (keeper.believed.filter(t -> now - t.deadlineNanos() > MILLI).isPresent()) {
                broken = Optional.of(keeper.self.holder() + " believes past its deadline");
            }
        }
        for (ModelledKeeper keeper : List.of(a, b)) {
            // Stronger than the pair: belief only while the model's store holds the key for that keeper.
            if (keeper.believed.isPresent() && !store.holder().equals(Optional.of(keeper.self))) {
                broken = Optional.of(keeper.self.holder() + " believes while the store's record is "
                        + store.holder().map(Object::toString).orElse("gone"));
            }
        }
        if (a.believed.isPresent() && b.believed.isPresent()) {
            broken = Optional.of("both believe: A " + a.believed.get() + ", B " + b.believed.get());
        }
    }

    private void broadcast(String kind, long sequence, Claimant by) {
        for (ModelledKeeper keeper : List.of(a, b)) {
            if (now >= keeper.downUntil) {
                at(random.nextInt(60), () -> keeper.on(new KeeperEvent.Changed(KeeperHarness.change(kind, sequence, by))));
            }
        }
    }

    /** A request: lands after a delay (or not, when lost), its answer comes later, or a failure instead. */
    private void call(ModelledKeeper keeper, long call, java.util.function.Supplier<KeeperEvent> land) {
        int fate = now < keeper.downUntil ? 0 : random.nextInt(10);
        at(random.nextInt(80), () -> {
            KeeperEvent answer = fate == 0 ? null : land.get();
            long back = random.nextInt(fate == 1 ? 3_000 : 80);
            at(back, () -> keeper.on(fate <= 1 ? new KeeperEvent.CallFailed(call, Optional.empty()) : answer));
        });
    }

    /**
     * dagnats' handover: the successor asked while the key is read (ADR-046), its yes up to 0.9 s
     * before the write; the write a compare-and-set on the revision held; then its grant, mostly at
     * once, sometimes late, sometimes lost. The request may be lost, or its answer (after a write).
     */
    private void handover(ModelledKeeper k, KeeperEffect.SendHandover send) {
        ModelledKeeper to = k == a ? b : a;
        int fate = now < k.downUntil ? 0 : random.nextInt(10);
        at(random.nextInt(80), () -> {
            boolean yes = fate != 0 && to.waiting() && now >= to.downUntil;
            long saidAt = now;
            if (yes) {
                to.on(new KeeperEvent.Expecting());
            }
            at(yes ? random.nextInt(900) : 0, () -> {
                HandoverAnswer answer = fate == 0 ? null : !store.holds(k.self, send.held()) ? HandoverAnswer.LOST
                        : !yes ? HandoverAnswer.NO_SUCCESSOR : HandoverAnswer.HANDED_OVER;
                if (answer == HandoverAnswer.HANDED_OVER) {
                    store.write(now, to.self, "handed-over", true, store.ttl());
                    LeaseView written = store.view(now);
                    int granting = random.nextInt(5);
                    if (granting != 0) {
                        at(random.nextInt(granting == 1 ? 3_000 : 60), () -> {
                            if (now >= to.downUntil) {
                                to.on(new KeeperEvent.Granted(written, saidAt));
                                if (random.nextInt(3) == 0) {
                                    // Cut off at once: its deadline from the yes is all that bounds its belief.
                                    to.downUntil = now + random.nextInt(25_000) * MILLI;
                                }
                            }
                        });
                    }
                }
                at(random.nextInt(fate == 1 ? 3_000 : 80), () -> k.on(fate <= 1
                        ? new KeeperEvent.CallFailed(send.call(), Optional.empty())
                        : new KeeperEvent.HandoverAnswered(send.call(), answer)));
            });
        });
    }

    private void perform(ModelledKeeper k, KeeperEffect effect) {
        if (effect instanceof KeeperEffect.SendAcquire send) {
            call(k, send.call(), () -> {
                if (store.holder().isEmpty()) {
                    store.write(now, k.self, "acquired", true, k.rules.ttl);
                }
                return new KeeperEvent.AcquireAnswered(send.call(), store.holder().get().equals(k.self)
                        ? new Answers.Acquire.Granted(store.view(now)) : new Answers.Acquire.HeldByOther(store.view(now)));
            });
        } else if (effect instanceof KeeperEffect.SendRenew send) {
            call(k, send.call(), () -> {
                if (!store.holds(k.self, send.fence())) {
                    return new KeeperEvent.RenewAnswered(send.call(), new Answers.Renew.Lost("not at " + send.fence()));
                }
                store.write(now, k.self, "renewed", false, k.rules.ttl);
                return new KeeperEvent.RenewAnswered(send.call(), new Answers.Renew.Renewed(store.view(now)));
            });
        } else if (effect instanceof KeeperEffect.SendRelease send) {
            at(random.nextInt(80), () -> {
                if (store.holds(k.self, send.held())) {
                    store.free(k.self);
                }
                at(random.nextInt(80), () -> k.on(new KeeperEvent.Released(send.call())));
            });
        } else if (effect instanceof KeeperEffect.SendHandover send) {
            handover(k, send);
        } else if (effect instanceof KeeperEffect.Schedule schedule) {
            queue.add(new Item(now + Math.max(0, schedule.delayNanos()), order++, () -> k.on(schedule.event())));
        } else if (effect instanceof KeeperEffect.DrainHandlers drain) {
            boolean inTime = random.nextInt(5) != 0;
            at(inTime ? random.nextInt(300) : drain.within().toMillis(),
                    () -> k.on(new KeeperEvent.Drained(drain.drain(), inTime)));
        } else if (effect instanceof KeeperEffect.AskCandidates ask) {
            at(ask.window().toMillis(), () -> k.on(new KeeperEvent.CandidatesAnswered(ask.ask(),
                    (k == a ? b : a).waiting() ? List.of(k == a ? HandoverRulesTest.OLD : A) : List.of())));
        } else if (effect instanceof KeeperEffect.BecomeOwner become) {
            k.believed = Optional.of(become.tenure());
        } else if (effect instanceof KeeperEffect.Renew renew) {
            k.believed = Optional.of(renew.tenure());
        } else if (effect instanceof KeeperEffect.StopOwning) {
            k.believed = Optional.empty();
        }
    }
}
