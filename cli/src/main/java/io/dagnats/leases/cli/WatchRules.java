package io.dagnats.leases.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a watch of the bucket's stream is, and what it tells the operator on stderr: a pure
 * function from (state, event) to (state, lines, whether to print the change). The runner
 * ({@link WatchLeases}) feeds it the connection's events and each message the stream delivers.
 *
 * <p>The rules. The watch prints each revision once, in order: a revision below the next one
 * expected was printed already (an ordered consumer recreated after a gap may deliver it
 * again) and is dropped. A revision above it means the bucket no longer holds the ones
 * between: the bucket keeps each key's last change only (history 1), so a key's later change
 * replaced them, or they expired or were purged. The first message after the watch starts or
 * resumes says so at once, naming the first revision the bucket holds from there; skips while
 * catching up on what the bucket holds are counted and said on one line once caught up (the
 * stream reports nothing pending). A dropped connection is said once, however often jnats
 * retries, and its return once.
 */
final class WatchRules {

    enum Phase {
        /** Begun, nothing delivered yet. */
        STARTING,
        FOLLOWING,
        /** The connection dropped; said so. */
        LOST,
        /** The connection came back; nothing delivered since. */
        RESUMING
    }

    /**
     * @param next          the revision the watch prints next: the last one delivered + 1
     * @param skipped       revisions not held that were skipped since the last line that said so
     * @param firstSkipped  the lowest of them (meaningless while {@code skipped} is 0)
     */
    record State(Phase phase, long next, long skipped, long firstSkipped) {

        static State startingAt(long revision) {
            return new State(Phase.STARTING, revision, 0, 0);
        }
    }

    /** What to do: the new state, the lines for stderr, and whether the delivered change is to be printed. */
    record Step(State state, List<String> notices, boolean print) {
    }

    static final String NOT_HELD_BECAUSE = "a key's later change replaces its earlier one; expired and purged ones are gone";

    private WatchRules() {
    }

    static Step lost(State state) {
        if (state.phase() == Phase.LOST) {
            return new Step(state, List.of(), false);
        }
        return new Step(new State(Phase.LOST, state.next(), state.skipped(), state.firstSkipped()),
                List.of("NATS connection lost; the watch resumes from revision " + state.next() + " when it is back"),
                false);
    }

    static Step back(State state) {
        if (state.phase() != Phase.LOST) {
            return new Step(state, List.of(), false);
        }
        return new Step(new State(Phase.RESUMING, state.next(), state.skipped(), state.firstSkipped()),
                List.of("NATS connection back; resuming from revision " + state.next()), false);
    }

    /**
     * @param revision the delivered message's stream sequence
     * @param pending  how many messages the stream still has for the watch after this one
     */
    static Step delivered(State state, long revision, long pending) {
        if (revision < state.next()) {
            return new Step(state, List.of(), false);
        }
        List<String> notices = new ArrayList<>();
        long skipped = state.skipped();
        long firstSkipped = state.firstSkipped();
        boolean restarted = state.phase() == Phase.STARTING || state.phase() == Phase.RESUMING;
        if (revision > state.next()) {
            if (restarted) {
                notices.add("the bucket no longer holds " + range(state.next(), revision - 1)
                        + "; the first revision it holds from there is " + revision + " (" + NOT_HELD_BECAUSE + ")");
            } else {
                if (skipped == 0) {
                    firstSkipped = state.next();
                }
                skipped += revision - state.next();
            }
        }
        if (pending == 0 && skipped > 0) {
            notices.add("caught up at revision " + revision + ": " + skipped + " revision" + (skipped == 1 ? "" : "s")
                    + " from " + firstSkipped + " on " + (skipped == 1 ? "is" : "are") + " no longer in the bucket ("
                    + NOT_HELD_BECAUSE + ")");
            skipped = 0;
        }
        Phase phase = state.phase() == Phase.LOST ? Phase.LOST : Phase.FOLLOWING;
        return new Step(new State(phase, revision + 1, skipped, firstSkipped), notices, true);
    }

    private static String range(long from, long to) {
        return from == to ? "revision " + from : "revisions " + from + " to " + to;
    }
}
