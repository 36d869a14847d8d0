package io.dagnats.leases.holder.internal;

import java.util.List;

/**
 * One transition of a machine's rules (the keeper's, the follower's): the next state, what the
 * machine remembers across states, and the effects to perform, in order. The rules return one;
 * the {@link StepRunner} takes it in and performs its effects.
 *
 * @param <S> the machine's states
 * @param <M> what it remembers across states
 * @param <E> the effects its runner performs
 */
public interface Step<S, M, E> {

    S state();

    M memory();

    List<E> effects();
}
