package io.dagnats.leases.holder.internal.follow;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.holder.KeyOwner;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Steps FollowRules by hand, on a clock that moves only when told, and records what it reads,
 * tells, schedules and logs.
 */
abstract class FollowRulesHarness {

    static final LeaseKey KEY = new LeaseKey("k");
    static final Duration TTL = Duration.ofSeconds(2);
    static final Incarnation RUN = new Incarnation("run-1");

    final FollowRules rules = new FollowRules(KEY);
    FollowState state = new FollowState.Idle();
    FollowStep.Memory memory = FollowStep.Memory.FRESH;
    long now = 1_000_000_000L;
    final List<KeyOwner> told = new ArrayList<>();
    final List<Long> reads = new ArrayList<>();
    final List<FollowEffect.Schedule> timers = new ArrayList<>();
    final List<String> logs = new ArrayList<>();
    /** The owners reported as handed over to (ADR-042), also in {@link #told}. */
    final List<KeyOwner> handedOver = new ArrayList<>();

    void start() {
        step(new FollowEvent.Start());
    }

    void hear(LeaseChange change) {
        step(new FollowEvent.Heard(change));
    }

    void answer(Answers.Owner answer) {
        step(new FollowEvent.Read(reads.get(reads.size() - 1), answer));
    }

    void step(FollowEvent event) {
        FollowStep step = rules.next(state, memory, event, now);
        state = step.state();
        memory = step.memory();
        for (FollowEffect effect : step.effects()) {
            if (effect instanceof FollowEffect.SendRead read) {
                reads.add(read.call());
            } else if (effect instanceof FollowEffect.Report report) {
                told.add(report.owner());
                if (report.handedOver()) {
                    handedOver.add(report.owner());
                }
            } else if (effect instanceof FollowEffect.Schedule schedule) {
                timers.add(schedule);
            } else if (effect instanceof FollowEffect.Log log) {
                logs.add(log.line());
            }
        }
    }

    FollowEffect.Schedule lastTimer() {
        return timers.get(timers.size() - 1);
    }

    static Answers.Owner held(String holder, long tenure, long revision) {
        return new Answers.Owner.Held(new LeaseView(KEY, new HolderId(holder), Optional.empty(), new Fence(revision),
                Optional.of(new Fence(tenure)), Instant.EPOCH, Instant.EPOCH, new LeaseTtl(TTL.toMillis())));
    }

    static KeyOwner held(String holder, long tenure) {
        return new KeyOwner.Held(KEY, new HolderId(holder), Optional.empty(), new Fence(tenure));
    }

    static KeyOwner free() {
        return new KeyOwner.Free(KEY);
    }

    /** An event as dagnats' writes (and the server's expiry marker, {@code holder} null) are read. */
    static LeaseChange event(LeaseChange.Kind kind, long sequence, long previous, String holder) {
        boolean write = kind == LeaseChange.Kind.ACQUIRED || kind == LeaseChange.Kind.RENEWED
                || kind == LeaseChange.Kind.HANDED_OVER;
        return new LeaseChange(Instant.EPOCH, KEY, kind, sequence, Optional.ofNullable(holder).map(HolderId::new),
                Optional.empty(), write ? Optional.of(new Fence(sequence)) : Optional.empty(), Optional.empty(),
                write ? Optional.of(TTL) : Optional.empty(), OptionalLong.of(previous));
    }
}
