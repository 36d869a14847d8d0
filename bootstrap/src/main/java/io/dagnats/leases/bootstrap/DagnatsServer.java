package io.dagnats.leases.bootstrap;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.ProvisionException;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.adapters.nats.ConnectedAccount;
import io.dagnats.leases.adapters.nats.ExpiryWatch;
import io.dagnats.leases.adapters.nats.LeaseApi;
import io.dagnats.leases.adapters.nats.LeaseBucket;
import io.dagnats.leases.adapters.nats.PublishDenials;
import io.dagnats.leases.adapters.otel.TelemetrySetup;
import io.dagnats.leases.application.LeaseCensus;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A running dagnats: connected, the bucket provisioned (or known unsupported),
 * the endpoints subscribed. {@link #close()} drains it.
 */
public final class DagnatsServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(DagnatsServer.class.getName());
    /** How often the bucket is judged again: a bucket changed or recreated under a running service is noticed. */
    private static final Duration RECHECK = Duration.ofSeconds(2);
    private static final Duration REPLY_FLUSH = Duration.ofSeconds(2);

    private final Settings settings;
    private final Connection connection;
    private final LeaseBucket bucket;
    private final LeaseApi api;
    private final ScheduledExecutorService provisioner;
    private final TelemetrySetup telemetrySetup;
    /** Expiries for the lease event counter; none unless metrics are exported. */
    private final Optional<ExpiryWatch> expiries;
    /** The census for the lease gauges; none unless metrics are exported. */
    private final Optional<PeriodicCensus> census;
    /** The verdict last logged; the provisioner thread's own. */
    private BucketStatus judged;

    private DagnatsServer(Settings settings, Injector injector) {
        this.settings = settings;
        this.connection = injector.getInstance(Connection.class);
        // Before anything is created or served in the account it is connected in (ADR-036, amended).
        Optional<String> wrongAccount = ConnectedAccount.startRefusal(connection, settings.identity().identity(),
                settings.service().jetStreamTimeout(), injector.getInstance(PublishDenials.class));
        if (wrongAccount.isPresent()) {
            try {
                connection.close();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException(wrongAccount.get());
        }
        this.bucket = injector.getInstance(LeaseBucket.class);
        this.api = injector.getInstance(LeaseApi.class);
        LeaseTelemetry telemetry = injector.getInstance(LeaseTelemetry.class);
        this.telemetrySetup = injector.getInstance(TelemetrySetup.class);
        this.provisioner = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "dagnats-provisioner");
            thread.setDaemon(true);
            return thread;
        });
        BucketStatus status = bucket.provision();
        telemetry.leasesSupported(status instanceof BucketStatus.Ready);
        api.start();
        expiries = telemetrySetup.metricsExported()
                ? Optional.of(ExpiryWatch.start(connection, telemetry)) : Optional.empty();
        census = telemetrySetup.metricsExported()
                ? Optional.of(new PeriodicCensus(injector.getInstance(LeaseCensus.class), telemetry)) : Optional.empty();
        LOG.log(status instanceof BucketStatus.Ready ? System.Logger.Level.INFO : System.Logger.Level.WARNING,
                "dagnats " + LeaseApi.VERSION + " serving " + LeaseSubjects.API_PREFIX + "* on "
                + connection.getConnectedUrl() + ", nats-server " + bucket.serverVersion()
                + " (" + settings.describeAuthentication() + ", " + telemetrySetup.describe() + ", "
                + settings.identity().identity().describe() + "): "
                + status.describe());
        settings.identity().identity().warning(bucket.serverVersion())
                .ifPresent(warning -> LOG.log(System.Logger.Level.WARNING, "dagnats: " + warning));
        this.judged = status;
        bucket.recheckWith(() -> {
            try {
                provisioner.execute(() -> recheck(telemetry));
            } catch (RejectedExecutionException stopping) {
                // Stopping: nothing left to judge the bucket for.
            }
        });
        provisioner.scheduleWithFixedDelay(() -> recheck(telemetry), RECHECK.toMillis(), RECHECK.toMillis(),
                TimeUnit.MILLISECONDS);
        census.ifPresent(counting -> counting.schedule(provisioner, telemetrySetup.metricInterval()));
    }

    /**
     * Connects and starts serving.
     *
     * @throws IllegalStateException with one sentence when the server cannot be reached
     */
    public static DagnatsServer start(Settings settings) {
        try {
            Injector injector = Guice.createInjector(
                    new NatsModule(settings), new LeasesModule(), new TelemetryModule(settings));
            return new DagnatsServer(settings, injector);
        } catch (ProvisionException failed) {
            Throwable cause = failed.getCause() == null ? failed : failed.getCause();
            if (cause instanceof IllegalArgumentException misconfigured) {
                throw new IllegalStateException(misconfigured.getMessage(), misconfigured);
            }
            throw new IllegalStateException("could not connect to " + settings.connection().natsUrl() + ": " + cause.getMessage(), cause);
        }
    }

    public BucketStatus status() {
        return bucket.status();
    }

    /** Judges the bucket again (on the provisioner thread only); a changed answer is logged once, as one line. */
    private void recheck(LeaseTelemetry telemetry) {
        BucketStatus status;
        try {
            status = bucket.provision();
        } catch (RuntimeException bug) {
            // A scheduled task that throws is never run again: keep judging.
            LOG.log(System.Logger.Level.WARNING, "dagnats could not judge the leases bucket: " + bug);
            return;
        }
        if (!status.describe().equals(judged.describe())) {
            telemetry.leasesSupported(status instanceof BucketStatus.Ready);
            System.Logger.Level level = status instanceof BucketStatus.Ready
                    ? System.Logger.Level.INFO : System.Logger.Level.WARNING;
            LOG.log(level, "dagnats: " + status.describe());
        }
        judged = status;
    }

    /**
     * For fault tests: dies as a killed process would, mid-request, without
     * draining or answering what is in flight.
     */
    public void crash() throws InterruptedException {
        provisioner.shutdownNow();
        census.ifPresent(PeriodicCensus::stop);
        expiries.ifPresent(ExpiryWatch::close);
        connection.close();
        telemetrySetup.close();
    }

    /** Stops taking requests, answers the ones in flight (up to the drain timeout), then disconnects. */
    @Override
    public void close() throws InterruptedException {
        provisioner.shutdownNow();
        census.ifPresent(PeriodicCensus::stop);
        boolean drained = api.stop(settings.service().drainTimeout());
        if (!drained) {
            LOG.log(System.Logger.Level.WARNING, "dagnats stopped with requests still in flight after "
                    + settings.service().drainTimeout().toMillis() + " ms");
        }
        flushReplies();
        expiries.ifPresent(ExpiryWatch::close);
        connection.close();
        telemetrySetup.close();
    }

    /** The last replies may still sit in the connection's outgoing buffer, which closing would drop. */
    private void flushReplies() throws InterruptedException {
        try {
            connection.flush(REPLY_FLUSH);
        } catch (TimeoutException | IllegalStateException notFlushed) {
            LOG.log(System.Logger.Level.WARNING, "dagnats could not flush its last replies before disconnecting: "
                    + notFlushed.getMessage());
        }
    }
}
