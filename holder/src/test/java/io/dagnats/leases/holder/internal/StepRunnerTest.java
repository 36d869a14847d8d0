package io.dagnats.leases.holder.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one runner of the holder's machines: state and memory follow the rules, effects run in order, the end is the rules'. */
class StepRunnerTest {

    /** A counter machine: an event adds to the count, says so twice, and 3 or more is final. */
    private record Counted(String state, Integer memory, List<String> effects) implements Step<String, Integer, String> {
    }

    private final ManualScheduler scheduler = new ManualScheduler();
    private final List<String> performed = new ArrayList<>();
    private final StepRunner<String, Integer, String, Integer> runner = new StepRunner<>(scheduler, "start", 0,
            (state, memory, add) -> {
                if (add < 0) {
                    throw new IllegalArgumentException("no rule for " + add);
                }
                int count = memory + add;
                return new Counted(count >= 3 ? "done" : "counting", count, List.of("added " + add, "now " + count));
            },
            (state, memory, event, bug) -> Optional.empty(), performed::add, "done"::equals);

    @Test
    void eventsRunOnTheSchedulerInOrderAndTheEffectsInTheirs() {
        runner.submit(1);
        assertEquals(List.of(), performed, "nothing runs off the scheduler thread");
        runner.submitAfter(1, 10);
        runner.submit(-1);
        scheduler.advance(Duration.ofNanos(10));
        assertEquals(List.of("added 1", "now 1", "added 1", "now 2"), performed, "a rule that threw changed nothing");
        assertEquals("counting", runner.state());
        assertFalse(runner.ended().isDone());
    }

    @Test
    void theRunnerEndsWhenTheRulesReachAFinalState() {
        runner.submit(2);
        runner.submit(1);
        scheduler.runDue();
        assertEquals("done", runner.state());
        assertTrue(runner.ended().isDone());
    }
}
