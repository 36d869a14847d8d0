package io.dagnats.leases.holder.internal.follow;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.holder.KeyOwner;
import io.dagnats.leases.holder.internal.Step;
import io.dagnats.leases.holder.internal.StepBuilder;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One transition of {@link FollowRules}: the next state, what the follower remembers across
 * states, and the effects to perform, in order.
 */
record FollowStep(FollowState state, FollowStep.Memory memory, List<FollowEffect> effects)
        implements Step<FollowState, FollowStep.Memory, FollowEffect> {

    FollowStep {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(memory, "memory");
        effects = List.copyOf(effects);
    }

    /**
     * @param nextId  the id the next read or timer gets
     * @param told    the owner last reported, if any yet
     * @param highest the owner with the highest tenure ever reported: no other at or below it is reported
     */
    record Memory(long nextId, Optional<KeyOwner> told, Optional<KeyOwner.Held> highest, long highestRevision) {

        static final Memory FRESH = new Memory(1, Optional.empty(), Optional.empty(), 0);

        Memory {
            Objects.requireNonNull(told, "told");
            Objects.requireNonNull(highest, "highest");
        }
    }

    /** Collects one step: ids are drawn from the memory as the effects are added. */
    static final class Builder extends StepBuilder<FollowState, Memory, FollowEffect, FollowStep> {
        private final Optional<Fence> floor;

        /** @param floor the highest fence this process confirmed for the key, as the event found it */
        Builder(Memory memory, Optional<Fence> floor) {
            super(memory);
            this.floor = Objects.requireNonNull(floor, "floor");
        }

        Optional<Fence> floor() {
            return floor;
        }

        /** A fresh id for a read or a timer. */
        long id() {
            Memory memory = memory();
            remember(new Memory(memory.nextId() + 1, memory.told(), memory.highest(), memory.highestRevision()));
            return memory.nextId();
        }

        /** The owner already reported is read again at {@code revision}: that record counts as read. */
        Builder readAgain(long revision) {
            Memory memory = memory();
            if (Long.compareUnsigned(revision, memory.highestRevision()) > 0) {
                remember(new Memory(memory.nextId(), memory.told(), memory.highest(), revision));
            }
            return this;
        }

        /**
         * {@code owner} is reported, read from a record at {@code revision} (0 for none): remembered as
         * told, and, when it is held, as the highest owner and (unsigned) the highest record revision.
         */
        Builder told(KeyOwner owner, long revision) {
            return told(owner, revision, false);
        }

        /** As {@link #told(KeyOwner, long)}; {@code handedOver}: its tenure began with a handover to it. */
        Builder told(KeyOwner owner, long revision, boolean handedOver) {
            Memory memory = memory();
            Optional<KeyOwner.Held> highest = owner instanceof KeyOwner.Held held ? Optional.of(held) : memory.highest();
            long highestRevision = owner instanceof KeyOwner.Held && Long.compareUnsigned(revision, memory.highestRevision()) > 0
                    ? revision : memory.highestRevision();
            remember(new Memory(memory.nextId(), Optional.of(owner), highest, highestRevision));
            return then(new FollowEffect.Report(owner, handedOver));
        }

        @Override
        public Builder then(FollowEffect effect) {
            super.then(effect);
            return this;
        }

        @Override
        protected FollowStep step(FollowState state, Memory memory, List<FollowEffect> effects) {
            return new FollowStep(state, memory, effects);
        }
    }
}
