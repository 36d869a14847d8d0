package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.internal.FenceFloors;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One keeper in {@link TwoKeepersNeverBelieveAtOnceTest}: the pure rules, its state and memory, what
 * it believes (BecomeOwner to StopOwning, from its own effects), and until when it is cut off from
 * NATS; and its floors, kept as {@link LeaseKeeper} keeps them (events heard, fences confirmed, each
 * answer judged by the floor at its send). Every step goes to the model's trace, each effect to the model.
 */
final class ModelledKeeper {

    private static final long MILLI = 1_000_000L;

    final KeeperRules rules;
    final Claimant self;
    KeeperState state = new KeeperState.Idle();
    KeeperMemory memory = KeeperMemory.FRESH;
    Optional<Tenure> believed = Optional.empty();
    /** Cut off from NATS until then: its requests land nowhere and fail, events to it are lost. */
    long downUntil;
    private final FenceFloors floors = new FenceFloors();
    private final FloorsAtSend atSend;

    private final LongSupplier now;
    private final LongFunction<Instant> wall;
    private final Consumer<Supplier<String>> trace;
    private final BiConsumer<ModelledKeeper, KeeperEffect> perform;
    private final long zero;

    ModelledKeeper(KeeperRules rules, Claimant self, LongSupplier now, long zero, LongFunction<Instant> wall,
            Consumer<Supplier<String>> trace, BiConsumer<ModelledKeeper, KeeperEffect> perform) {
        this.rules = rules;
        this.self = self;
        this.now = now;
        this.zero = zero;
        this.wall = wall;
        this.trace = trace;
        this.perform = perform;
        this.atSend = new FloorsAtSend(floors, rules.key);
    }

    void on(KeeperEvent event) {
        long at = now.getAsLong();
        if (event instanceof KeeperEvent.Changed changed) {
            changed.change().ifPresent(write -> floors.heard(rules.key, write, self));
        }
        KeeperStep step = rules.next(state, memory, event, new EventTime(at, wall.apply(at), atSend.judging(event)));
        KeeperState before = state;
        // Formatted only for a failure's report: formatting every step was most of the run time.
        trace.accept(() -> String.format("%6d ms %s %s + %s -> %s %s", (at - zero) / MILLI, self.holder(),
                before.getClass().getSimpleName(), event, step.state(), step.effects()));
        state = step.state();
        memory = step.memory();
        step.effects().forEach(effect -> {
            keepFloors(effect);
            perform.accept(this, effect);
        });
    }

    private void keepFloors(KeeperEffect effect) {
        if (effect instanceof KeeperEffect.SendAcquire send) {
            atSend.sent(send.call());
        } else if (effect instanceof KeeperEffect.SendRenew send) {
            atSend.sent(send.call());
        } else if (effect instanceof KeeperEffect.BecomeOwner become) {
            floors.raise(rules.key, become.tenure().fence());
            believed = Optional.of(become.tenure());
        } else if (effect instanceof KeeperEffect.Renew renew) {
            floors.raise(rules.key, renew.tenure().fence());
            believed = Optional.of(renew.tenure());
        } else if (effect instanceof KeeperEffect.StopOwning) {
            believed = Optional.empty();
        }
    }

    boolean waiting() {
        return state instanceof KeeperState.Waiting || state instanceof KeeperState.Acquiring;
    }
}
