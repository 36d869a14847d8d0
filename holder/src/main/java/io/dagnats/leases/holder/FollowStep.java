package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Fence;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One transition of {@link FollowRules}: the next state, what the follower remembers across
 * states, and the effects to perform, in order.
 */
record FollowStep(FollowState state, FollowStep.Memory memory, List<FollowEffect> effects) {

    FollowStep {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(memory, "memory");
        effects = List.copyOf(effects);
    }

    /**
     * @param nextId  the id the next read or timer gets
     * @param told    the owner last reported, if any yet
     * @param highest the highest tenure ever reported: no owner at or below it is reported again
     */
    record Memory(long nextId, Optional<KeyOwner> told, Optional<Fence> highest) {

        static final Memory FRESH = new Memory(1, Optional.empty(), Optional.empty());

        Memory {
            Objects.requireNonNull(told, "told");
            Objects.requireNonNull(highest, "highest");
        }
    }

    /** Collects one step: ids are drawn from the memory as the effects are added. */
    static final class Builder {
        private Memory memory;
        private final List<FollowEffect> effects = new ArrayList<>();

        Builder(Memory memory) {
            this.memory = memory;
        }

        /** A fresh id for a read or a timer. */
        long id() {
            long id = memory.nextId();
            memory = new Memory(id + 1, memory.told(), memory.highest());
            return id;
        }

        Memory memory() {
            return memory;
        }

        /** {@code owner} is reported: remembered as told, and its tenure as the highest if it is held. */
        Builder told(KeyOwner owner) {
            Optional<Fence> highest = owner instanceof KeyOwner.Held held ? Optional.of(held.tenure()) : memory.highest();
            memory = new Memory(memory.nextId(), Optional.of(owner), highest);
            return then(new FollowEffect.Report(owner));
        }

        Builder then(FollowEffect effect) {
            effects.add(effect);
            return this;
        }

        FollowStep into(FollowState state) {
            return new FollowStep(state, memory, effects);
        }
    }
}
