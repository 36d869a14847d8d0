package io.dagnats.leases.bootstrap;

import java.time.Duration;
import java.util.Optional;

/**
 * What an operator reads about the NATS connection: during an outage jnats reports
 * every failed reconnect (two a second), which drowned the log in identical
 * warnings (issue 29). The rule: one line when the outage starts, one when it
 * ends, and in between at most one summary every {@link #SUMMARY_EVERY}. Outside
 * an outage each problem is a line of its own, as it is rare and may matter.
 * Pure: the caller keeps the state and the clock.
 */
final class OutageLines {

    /** The most often a still-running outage is summarised. */
    static final Duration SUMMARY_EVERY = Duration.ofSeconds(10);

    private OutageLines() {
    }

    /** The connection as the log has told it so far. */
    sealed interface Link permits Up, Down {
    }

    /** Connected, or never told otherwise. */
    record Up() implements Link {
    }

    /**
     * Disconnected since {@code since} (monotonic nanos); {@code quiet} problems
     * arrived since the last line, the last of them {@code lastProblem}.
     */
    record Down(long since, long lastLine, int quiet, String lastProblem) implements Link {
        Down {
            if (quiet < 0) {
                throw new IllegalArgumentException("a count of problems is never negative: " + quiet);
            }
        }
    }

    /** The state after an event, and the line (if any) the log gets for it. */
    record Next(Link link, Optional<String> line) {
    }

    static Next lost(Link link, long now) {
        if (link instanceof Down) {
            return new Next(link, Optional.empty());
        }
        return new Next(new Down(now, now, 0, ""), Optional.of("NATS connection lost; reconnecting"));
    }

    static Next problem(Link link, long now, String words) {
        if (!(link instanceof Down down)) {
            return new Next(link, Optional.of("NATS connection problem: " + words));
        }
        int quiet = down.quiet() + 1;
        if (now - down.lastLine() < SUMMARY_EVERY.toNanos()) {
            return new Next(new Down(down.since(), down.lastLine(), quiet, words), Optional.empty());
        }
        return new Next(new Down(down.since(), now, 0, words), Optional.of("NATS still unreachable after "
                + seconds(now - down.since()) + ": " + attempts(quiet) + " since the last line, the last: " + words));
    }

    static Next back(Link link, long now, String url) {
        if (!(link instanceof Down down)) {
            return new Next(link, Optional.of("NATS connection back, to " + url));
        }
        return new Next(new Up(), Optional.of("NATS connection back, to " + url + ", after "
                + seconds(now - down.since())));
    }

    /**
     * A connection fault in words: its message, or its cause's, never a class
     * name such as {@code java.io.IOException} (issue 29).
     */
    static String words(Throwable fault) {
        for (Throwable at = fault; at != null; at = at.getCause()) {
            boolean onlyNamesItsCause = at.getCause() != null && at.getCause().toString().equals(at.getMessage());
            if (at.getMessage() != null && !at.getMessage().isBlank() && !onlyNamesItsCause) {
                return at.getMessage().strip().replaceAll("\\s*\\R\\s*", " ");
            }
        }
        return "the connection failed without a reason";
    }

    private static String seconds(long nanos) {
        return Duration.ofNanos(nanos).toSeconds() + " s";
    }

    private static String attempts(int count) {
        return count == 1 ? "1 failed attempt" : count + " failed attempts";
    }
}
