package io.dagnats.leases.holder.internal;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The one runner loop of the holder's machines (a keeper, a follower): each event, on the
 * scheduler thread and one at a time, goes through the rules; their step becomes the state and
 * memory, and its effects are performed in order by the machine's own {@code perform}. The runner
 * decides nothing; it ends ({@link #ended()}) when the rules reach a final state, and nowhere else.
 *
 * @param <V> the machine's events
 */
public final class StepRunner<S, M, E, V> {

    /** The machine's rules, given the time as they need it (read when the event runs). */
    @FunctionalInterface
    public interface Rules<S, M, E, V> {
        Step<S, M, E> next(S state, M memory, V event);
    }

    /** What a machine does when a rule threw (a bug): the step to take instead, or none to stay as it was. */
    @FunctionalInterface
    public interface AfterBug<S, M, E, V> {
        Optional<Step<S, M, E>> step(S state, M memory, V event, RuntimeException bug);
    }

    private final Scheduler scheduler;
    private final Rules<S, M, E, V> rules;
    private final AfterBug<S, M, E, V> afterBug;
    private final Consumer<E> perform;
    private final Predicate<S> isFinal;
    private final CompletableFuture<Void> ended = new CompletableFuture<>();

    // Scheduler-thread state.
    private S state;
    private M memory;

    public StepRunner(Scheduler scheduler, S start, M fresh, Rules<S, M, E, V> rules, AfterBug<S, M, E, V> afterBug,
            Consumer<E> perform, Predicate<S> isFinal) {
        this.scheduler = scheduler;
        this.state = start;
        this.memory = fresh;
        this.rules = rules;
        this.afterBug = afterBug;
        this.perform = perform;
        this.isFinal = isFinal;
    }

    /** Runs {@code event} on the scheduler thread, after those submitted before it. */
    public void submit(V event) {
        scheduler.execute(() -> handle(event));
    }

    /** Runs {@code event} on the scheduler thread after {@code delayNanos}: a timer of the rules. */
    public void submitAfter(V event, long delayNanos) {
        scheduler.schedule(() -> handle(event), delayNanos);
    }

    /** Completes once the rules reach a final state. */
    public CompletableFuture<Void> ended() {
        return ended;
    }

    /** The state, read on the scheduler thread (for tests). */
    public S state() {
        return state;
    }

    private void handle(V event) {
        Step<S, M, E> step;
        try {
            step = rules.next(state, memory, event);
        } catch (RuntimeException bug) {
            Optional<Step<S, M, E>> instead = afterBug.step(state, memory, event, bug);
            if (instead.isEmpty()) {
                return;
            }
            step = instead.get();
        }
        state = step.state();
        memory = step.memory();
        step.effects().forEach(perform);
        if (isFinal.test(state)) {
            ended.complete(null);
        }
    }
}
