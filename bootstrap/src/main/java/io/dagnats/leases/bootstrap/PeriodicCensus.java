package io.dagnats.leases.bootstrap;

import io.dagnats.leases.application.LeaseCensus;
import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.domain.ErrorKind;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A census of the bucket for the lease gauges, once per metric export interval
 * (nothing is read more often than it is exported), one at a time, never on a
 * request's path. A census that fails leaves the last one reported and says so
 * in one line, and one more when a census succeeds again.
 */
final class PeriodicCensus {

    private static final System.Logger LOG = System.getLogger(PeriodicCensus.class.getName());

    private final LeaseCensus census;
    private final LeaseTelemetry telemetry;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile boolean failing;
    private volatile boolean stopped;

    PeriodicCensus(LeaseCensus census, LeaseTelemetry telemetry) {
        this.census = census;
        this.telemetry = telemetry;
    }

    /** Takes one now and one every {@code interval} on {@code executor}; stops with it. */
    void schedule(ScheduledExecutorService executor, Duration interval) {
        executor.scheduleWithFixedDelay(this::takeOne, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A census in flight when the service stops ends unreported and unlogged. */
    void stop() {
        stopped = true;
    }

    void takeOne() {
        if (stopped || !running.compareAndSet(false, true)) {
            return;
        }
        CompletionStage<LeaseCensus.Count> taking;
        try {
            taking = census.take();
        } catch (RuntimeException bug) {
            running.set(false);
            failed(bug);
            return;
        }
        taking.whenComplete((count, failure) -> {
            running.set(false);
            if (stopped) {
                return;
            }
            if (failure != null) {
                failed(failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure);
                return;
            }
            telemetry.census(count);
            if (failing) {
                failing = false;
                LOG.log(System.Logger.Level.INFO, "dagnats: the lease census works again");
            }
        });
    }

    private void failed(Throwable cause) {
        // No leases to count where the server cannot serve them: the start line already says why.
        boolean unsupported = cause instanceof LeaseFailure failure && failure.kind() == ErrorKind.UNSUPPORTED;
        if (!unsupported && !failing) {
            failing = true;
            LOG.log(System.Logger.Level.WARNING, "dagnats could not count the leases (the lease gauges keep the"
                    + " last count until a census succeeds): " + cause.getMessage());
        }
    }
}
