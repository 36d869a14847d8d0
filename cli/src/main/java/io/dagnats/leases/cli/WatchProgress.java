package io.dagnats.leases.cli;

import java.io.PrintWriter;
import java.util.List;

/**
 * The runner of {@link WatchRules}: holds the watch's state, feeds it what the connection's
 * thread and the watch's own thread hear (one at a time), and writes its lines to stderr.
 * A watch of the change events instead of the stream ({@link #followingEvents}) can only say
 * that the connection dropped, once, and that it is back, once.
 */
final class WatchProgress {

    private final PrintWriter err;
    /** Null until the watch knows where it starts, and for a watch of the change events. */
    private WatchRules.State state;
    private boolean eventsOnly;
    /** Set when the connection is back: the watch makes its consumer again from where it is. */
    private boolean reopen;
    private boolean eventsLost;

    WatchProgress(PrintWriter err) {
        this.err = err;
    }

    synchronized void startAt(long revision) {
        state = WatchRules.State.startingAt(revision);
    }

    synchronized void followingEvents() {
        eventsOnly = true;
    }

    synchronized void connectivity(NatsSession.Connectivity change) {
        if (eventsOnly) {
            if (change == NatsSession.Connectivity.LOST && !eventsLost) {
                say(List.of("NATS connection lost; reconnecting (changes meanwhile are missed)"));
            } else if (change == NatsSession.Connectivity.BACK && eventsLost) {
                say(List.of("NATS connection back"));
            }
            eventsLost = change == NatsSession.Connectivity.LOST;
            return;
        }
        if (state != null) {
            WatchRules.Phase before = state.phase();
            apply(change == NatsSession.Connectivity.LOST ? WatchRules.lost(state) : WatchRules.back(state));
            reopen |= before == WatchRules.Phase.LOST && state.phase() == WatchRules.Phase.RESUMING;
        }
    }

    /** Whether the consumer is to be made again (once per return of the connection). */
    synchronized boolean takeReopen() {
        boolean wanted = reopen;
        reopen = false;
        return wanted;
    }

    /** The revision the watch prints next. */
    synchronized long next() {
        return state.next();
    }

    /** @return whether the change at {@code revision} is to be printed: false for one printed already */
    synchronized boolean delivered(long revision, long pending) {
        return apply(WatchRules.delivered(state, revision, pending));
    }

    private boolean apply(WatchRules.Step step) {
        state = step.state();
        say(step.notices());
        return step.print();
    }

    private void say(List<String> notices) {
        notices.forEach(notice -> err.println("dagnats: " + notice));
        err.flush();
    }
}
