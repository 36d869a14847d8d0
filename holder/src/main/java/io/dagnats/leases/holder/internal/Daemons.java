package io.dagnats.leases.holder.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** The daemon threads of a holder: numbered, so two holders' threads never share a name. */
public final class Daemons {

    private static final AtomicInteger THREADS = new AtomicInteger();

    private Daemons() {
    }

    public static ThreadFactory named(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
