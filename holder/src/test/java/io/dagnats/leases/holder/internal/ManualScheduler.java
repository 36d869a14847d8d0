package io.dagnats.leases.holder.internal;

import io.dagnats.leases.domain.MonotonicClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.PriorityQueue;

/**
 * A scheduler and monotonic clock that move only when the test says so: tasks
 * run, in time order, on the test's own thread as time is advanced past them.
 */
public final class ManualScheduler implements Scheduler, MonotonicClock {

    private record Task(long at, long order, Runnable action) {
    }

    private final PriorityQueue<Task> tasks = new PriorityQueue<>((left, right) -> left.at != right.at
            ? Long.compare(left.at, right.at) : Long.compare(left.order, right.order));
    private static final long START = 1_000_000_000L;
    private final Instant wallAtStart = Instant.now();
    private long now = START;
    private long order;
    private boolean shutDown;

    /** The wall clock as this scheduler moves it: as far from its start as the monotonic clock, never by itself. */
    public Instant wall() {
        return wallAtStart.plusNanos(now - START);
    }

    /** {@link #wall()} as a {@link Clock}, for the code under test. */
    public Clock wallClock() {
        ManualScheduler scheduler = this;
        return new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                throw new UnsupportedOperationException("UTC only");
            }

            @Override
            public Instant instant() {
                return scheduler.wall();
            }
        };
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void execute(Runnable task) {
        schedule(task, 0);
    }

    @Override
    public void schedule(Runnable task, long delayNanos) {
        if (shutDown) {
            return; // as Scheduler.of: a shut-down scheduler runs nothing more
        }
        tasks.add(new Task(now + Math.max(0, delayNanos), order++, task));
    }

    @Override
    public boolean isShutdown() {
        return shutDown;
    }

    /** Shuts down as an executor's shutdownNow: what is queued is dropped, and nothing new runs. */
    public void shutDown() {
        shutDown = true;
        tasks.clear();
    }

    /** Runs whatever is due now, including what those tasks schedule for now. */
    public void runDue() {
        advance(Duration.ZERO);
    }

    /** Moves the clock forward, running every task that falls due on the way, at its own time. */
    public void advance(Duration by) {
        long until = now + by.toNanos();
        while (!tasks.isEmpty() && tasks.peek().at <= until) {
            Task next = tasks.poll();
            now = Math.max(now, next.at);
            next.action.run();
        }
        now = until;
    }
}
