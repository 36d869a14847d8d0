package io.dagnats.leases.holder.internal;

import io.dagnats.leases.holder.HolderHealth.Cause;
import io.dagnats.leases.holder.HolderHealth;
import io.dagnats.leases.holder.LeaseHolder;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a holder knows of its reach to dagnats, from the outcomes of its calls: the rule
 * behind {@link HolderHealth} and its two log lines, as pure steps on the monotonic clock.
 *
 * <p>A run of unanswered calls starts at the first of them. Once the run has lasted
 * longer than the threshold, the next outcome says so: one "stuck" line at the first
 * unanswered call past it (and one more only if the cause then changes, NATS to dagnats
 * or back), one "recovered" line at the answer that ends it. A run that ends within the
 * threshold says nothing.
 */
sealed interface Reachability {

    Reachability REACHABLE = new Reachable();

    /** The last call was answered, or none was made yet. */
    record Reachable() implements Reachability {
    }

    /**
     * Calls have gone unanswered since {@code sinceNanos}.
     *
     * @param reported whether the stuck line was logged for this run
     */
    record Unanswered(long sinceNanos, Cause cause, String lastError, boolean reported) implements Reachability {
        public Unanswered {
            Objects.requireNonNull(cause, "cause");
            Objects.requireNonNull(lastError, "lastError");
        }
    }

    /** One line to log, without the holder's name. */
    record Line(Level level, String text) {
    }

    /** The next state, and the line to log on the way, if any. */
    record Step(Reachability next, Optional<Line> line) {
        static Step quietly(Reachability next) {
            return new Step(next, Optional.empty());
        }
    }

    /** Dagnats answered a call (an error answer too: it answers). */
    static Step answered(Reachability state, long nowNanos) {
        if (state instanceof Unanswered run && run.reported()) {
            return new Step(REACHABLE, Optional.of(new Line(Level.INFO,
                    "reaches dagnats again after " + millis(nowNanos - run.sinceNanos()) + " ms unanswered")));
        }
        return Step.quietly(REACHABLE);
    }

    /** A call went unanswered for {@code cause}, failing with {@code error}. */
    static Step unanswered(Reachability state, Cause cause, String error, long nowNanos, Duration threshold) {
        if (!(state instanceof Unanswered run)) {
            return Step.quietly(new Unanswered(nowNanos, cause, error, false));
        }
        long unansweredNanos = nowNanos - run.sinceNanos();
        boolean stuck = unansweredNanos > threshold.toNanos();
        boolean tell = stuck && (!run.reported() || run.cause() != cause);
        Unanswered next = new Unanswered(run.sinceNanos(), cause, error, run.reported() || stuck);
        return tell ? new Step(next, Optional.of(new Line(Level.WARNING, stuckLine(cause, unansweredNanos, error))))
                : Step.quietly(next);
    }

    /** What {@link LeaseHolder#health()} answers in {@code state} at {@code nowNanos}. */
    static HolderHealth health(Reachability state, long nowNanos, Duration threshold) {
        if (state instanceof Unanswered run) {
            Duration unansweredFor = Duration.ofNanos(nowNanos - run.sinceNanos());
            if (run.reported() || unansweredFor.compareTo(threshold) > 0) {
                return new HolderHealth.Unhealthy(run.cause(), unansweredFor, run.lastError());
            }
        }
        return new HolderHealth.Healthy();
    }

    private static String stuckLine(Cause cause, long unansweredNanos, String error) {
        return switch (cause) {
            case NATS_DISCONNECTED -> "cannot reach NATS: its connection is down and calls have gone unanswered for "
                    + millis(unansweredNanos) + " ms (" + error + "); no lease can be acquired or renewed until it"
                    + " reconnects";
            case DAGNATS_NOT_ANSWERING -> "cannot reach dagnats: NATS is connected but calls have gone unanswered for "
                    + millis(unansweredNanos) + " ms (" + error + "); no lease can be acquired or renewed until"
                    + " dagnats answers";
        };
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }
}
