package io.dagnats.leases.bootstrap;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.ProvisionException;
import io.dagnats.leases.adapters.http.HttpEndpoints;
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
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;
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
    /** Probes and the metrics scrape; none unless DAGNATS_HTTP_PORT is set. */
    private final Optional<HttpEndpoints> http;
    private final ServiceReadiness readiness;
    /** The verdict last logged; the provisioner thread's own. */
    private BucketStatus judged;

    private DagnatsServer(Settings settings, Injector injector, Optional<HttpEndpoints> http,
            ServiceReadiness readiness) {
        this.settings = settings;
        this.http = http;
        this.readiness = readiness;
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
        api.describe(ServiceDetails.of(settings, telemetrySetup, http.map(HttpEndpoints::address)));
        api.start();
        expiries = telemetrySetup.metricsExported()
                ? Optional.of(ExpiryWatch.start(connection, telemetry)) : Optional.empty();
        census = telemetrySetup.metricsExported()
                ? Optional.of(new PeriodicCensus(injector.getInstance(LeaseCensus.class), telemetry)) : Optional.empty();
        readiness.serving(connection, bucket);
        LOG.log(status instanceof BucketStatus.Ready ? System.Logger.Level.INFO : System.Logger.Level.WARNING,
                "dagnats " + DagnatsVersion.current().describe() + " serving " + LeaseSubjects.API_PREFIX + "* on "
                + connection.getConnectedUrl() + ", nats-server " + bucket.serverVersion() + ", identity mode "
                + settings.identity().identity().mode().name().toLowerCase(Locale.ROOT) + ": " + status.summary()
                + http.map(endpoints -> "; probes and metrics on " + httpUrl(endpoints)).orElse("")
                + " (details: the next line, and dagnats status)");
        // Issue 29: the start line is short (859 characters were more than a glance takes); the details here.
        LOG.log(System.Logger.Level.INFO, "dagnats: details: " + settings.describeAuthentication() + ", "
                + telemetrySetup.describe() + ", " + describeHttp() + ", " + settings.identity().identity().describe()
                + ": " + status.describe());
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
        Optional<HttpEndpoints> http = Optional.empty();
        try {
            Injector injector = Guice.createInjector(
                    new NatsModule(settings), new LeasesModule(), new TelemetryModule(settings));
            // Probes answer from before the connection opens: live, and not ready until serving.
            ServiceReadiness readiness = new ServiceReadiness(settings.connection().natsUrl());
            http = startHttp(settings.http(), readiness, injector.getInstance(TelemetrySetup.class));
            return new DagnatsServer(settings, injector, http, readiness);
        } catch (ProvisionException failed) {
            http.ifPresent(HttpEndpoints::close);
            Throwable cause = failed.getCause() == null ? failed : failed.getCause();
            if (cause instanceof IllegalArgumentException misconfigured) {
                throw new IllegalStateException(misconfigured.getMessage(), misconfigured);
            }
            throw new IllegalStateException("could not connect to " + settings.connection().natsUrl() + ": " + cause.getMessage(), cause);
        } catch (RuntimeException failed) {
            http.ifPresent(HttpEndpoints::close);
            throw failed;
        }
    }

    /** @throws IllegalStateException naming the address when it cannot be listened on */
    private static Optional<HttpEndpoints> startHttp(HttpSettings settings, ServiceReadiness readiness,
            TelemetrySetup telemetry) {
        if (settings.address().isEmpty()) {
            return Optional.empty();
        }
        InetSocketAddress address = settings.address().get();
        try {
            return Optional.of(HttpEndpoints.start(address, readiness, new ScrapedMetrics(telemetry.scrape())));
        } catch (UncheckedIOException unusable) {
            throw new IllegalStateException("cannot serve HTTP on " + address.getHostString() + ":" + address.getPort()
                    + " (" + HttpSettings.ADDRESS + ", " + HttpSettings.PORT + "): " + unusable.getMessage(), unusable);
        }
    }

    private String describeHttp() {
        return http.map(endpoints -> "probes and metrics on " + httpUrl(endpoints) + " (/livez, /readyz, /metrics)")
                .orElse("no HTTP");
    }

    private static String httpUrl(HttpEndpoints endpoints) {
        return "http://" + endpoints.address().getHostString() + ":" + endpoints.address().getPort();
    }

    public BucketStatus status() {
        return bucket.status();
    }

    /** Where the probes and the metrics scrape listen (the port taken when any was asked for); empty when off. */
    public Optional<InetSocketAddress> httpAddress() {
        return http.map(HttpEndpoints::address);
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
        http.ifPresent(HttpEndpoints::close);
        provisioner.shutdownNow();
        census.ifPresent(PeriodicCensus::stop);
        expiries.ifPresent(ExpiryWatch::close);
        connection.close();
        telemetrySetup.close();
    }

    /** Stops taking requests, answers the ones in flight (up to the drain timeout), then disconnects. */
    @Override
    public void close() throws InterruptedException {
        readiness.stopping();
        provisioner.shutdownNow();
        census.ifPresent(PeriodicCensus::stop);
        // Disconnected, no reply can leave (there is no reconnect buffer): waiting the drain out would only
        // keep the operator waiting (issue 29).
        if (connection.getStatus() == Connection.Status.CONNECTED) {
            boolean drained = api.stop(settings.service().drainTimeout());
            if (!drained) {
                LOG.log(System.Logger.Level.WARNING, "dagnats stopped with requests still in flight after "
                        + settings.service().drainTimeout().toMillis() + " ms");
            }
            flushReplies();
        } else {
            LOG.log(System.Logger.Level.WARNING, "dagnats stopping while disconnected from NATS: no reply could be"
                    + " sent, so it does not wait for requests in flight");
        }
        expiries.ifPresent(ExpiryWatch::close);
        connection.close();
        telemetrySetup.close();
        http.ifPresent(HttpEndpoints::close);
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
