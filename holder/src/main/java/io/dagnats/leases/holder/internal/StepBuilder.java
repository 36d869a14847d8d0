package io.dagnats.leases.holder.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Collects one {@link Step}: the effects, in the order the rules add them, and the memory as
 * the rules change it. Each machine's builder adds what its own rules remember (ids, what was
 * learnt) and names its own step type, so its rules read {@code KeeperStep}, not three type arguments.
 *
 * @param <T> the machine's step type, made by {@link #step}
 */
public abstract class StepBuilder<S, M, E, T extends Step<S, M, E>> {

    private M memory;
    private final List<E> effects = new ArrayList<>();

    protected StepBuilder(M memory) {
        this.memory = Objects.requireNonNull(memory, "memory");
    }

    public M memory() {
        return memory;
    }

    /** What the machine remembers from this step on. */
    protected void remember(M next) {
        memory = Objects.requireNonNull(next, "memory");
    }

    /** Adds {@code effect}; a machine's builder overrides it only to return its own type. */
    public StepBuilder<S, M, E, T> then(E effect) {
        effects.add(Objects.requireNonNull(effect, "effect"));
        return this;
    }

    /** The step into {@code state}, with the memory and effects collected. */
    public T into(S state) {
        return step(Objects.requireNonNull(state, "state"), memory, List.copyOf(effects));
    }

    protected abstract T step(S state, M memory, List<E> effects);
}
