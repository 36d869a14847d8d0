package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.holder.internal.Step;
import io.dagnats.leases.holder.internal.StepBuilder;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One transition of {@link KeeperRules}: the next state, what the keeper remembers across
 * states, and the effects to perform, in order.
 */
record KeeperStep(KeeperState state, KeeperMemory memory, List<KeeperEffect> effects)
        implements Step<KeeperState, KeeperMemory, KeeperEffect> {

    KeeperStep {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(memory, "memory");
        effects = List.copyOf(effects);
    }

    /** Collects one step: ids are drawn from the memory as the effects are added. */
    static final class Builder extends StepBuilder<KeeperState, KeeperMemory, KeeperEffect, KeeperStep> {

        Builder(KeeperMemory memory) {
            super(memory);
        }

        /** A fresh id for a call or a timer. */
        long id() {
            long id = memory().nextId();
            remember(memory().withNextId(id + 1));
            return id;
        }

        Builder learnt(ExpiryFallback fallback) {
            remember(memory().withFallback(fallback));
            return this;
        }

        /** The store was said to have gone back below {@code floor}: not again for the same floor. */
        Builder reported(Fence floor) {
            remember(memory().withReportedFloor(floor));
            return this;
        }

        /** Said yes to a handover check at {@code nanos}. */
        Builder saidYes(long nanos) {
            remember(memory().withSaidYes(nanos));
            return this;
        }

        /** Stepped down for a better candidate at {@code nanos}. */
        Builder yielded(long nanos) {
            remember(memory().withYieldAt(nanos));
            return this;
        }

        @Override
        public Builder then(KeeperEffect effect) {
            super.then(effect);
            if (effect instanceof KeeperEffect.StopOwning stop) {
                remember(memory().withToldStop(Optional.of(stop.reason())));
            } else if (effect instanceof KeeperEffect.Restate restate) {
                remember(memory().withToldStop(Optional.of(restate.reason())));
            } else if (effect instanceof KeeperEffect.BecomeOwner) {
                remember(memory().withToldStop(Optional.empty()));
            }
            return this;
        }

        @Override
        protected KeeperStep step(KeeperState state, KeeperMemory memory, List<KeeperEffect> effects) {
            return new KeeperStep(state, memory, effects);
        }
    }
}
