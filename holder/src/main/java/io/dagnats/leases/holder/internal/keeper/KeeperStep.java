package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Fence;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One transition of {@link KeeperRules}: the next state, what the keeper remembers across
 * states, and the effects to perform, in order.
 */
record KeeperStep(KeeperState state, KeeperMemory memory, List<KeeperEffect> effects) {

    KeeperStep {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(memory, "memory");
        effects = List.copyOf(effects);
    }

    /** Collects one step: ids are drawn from the memory as the effects are added. */
    static final class Builder {
        private KeeperMemory memory;
        private final List<KeeperEffect> effects = new ArrayList<>();

        Builder(KeeperMemory memory) {
            this.memory = memory;
        }

        /** A fresh id for a call or a timer. */
        long id() {
            long id = memory.nextId();
            memory = memory.withNextId(id + 1);
            return id;
        }

        Builder learnt(ExpiryFallback fallback) {
            memory = memory.withFallback(fallback);
            return this;
        }

        /** The store was said to have gone back below {@code floor}: not again for the same floor. */
        Builder reported(Fence floor) {
            memory = memory.withReportedFloor(floor);
            return this;
        }

        KeeperMemory memory() {
            return memory;
        }

        Builder then(KeeperEffect effect) {
            effects.add(effect);
            return this;
        }

        KeeperStep into(KeeperState state) {
            return new KeeperStep(state, memory, effects);
        }
    }
}
