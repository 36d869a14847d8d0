package io.dagnats.leases.cli;

import sun.misc.Signal;

/** How a long-running command (watch) learns that the operator wants it to stop. */
@FunctionalInterface
interface StopSignal {

    /** Ctrl-C or SIGTERM: the watch ends cleanly and exits 0 instead of the JVM's 130 or 143. */
    StopSignal SIGINT_OR_SIGTERM = stop -> {
        Signal.handle(new Signal("INT"), signal -> stop.run());
        Signal.handle(new Signal("TERM"), signal -> stop.run());
    };

    /** Runs {@code stop} when the operator asks to stop. */
    void onStop(Runnable stop);
}
