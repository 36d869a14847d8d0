package io.dagnats.leases.bootstrap;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.dagnats.leases.adapters.otel.OpenTelemetryLeaseTelemetry;
import io.dagnats.leases.adapters.otel.TelemetrySetup;
import io.dagnats.leases.application.LeaseTelemetry;
import io.nats.client.Connection;

/**
 * Telemetry from the standard OTEL_* settings; off, and free, when none are given and no
 * HTTP port serves a Prometheus scrape of the metrics.
 */
final class TelemetryModule extends AbstractModule {

    private final Settings settings;

    TelemetryModule(Settings settings) {
        this.settings = settings;
    }

    @Provides
    @Singleton
    TelemetrySetup setup() {
        return TelemetrySetup.fromEnvironment(settings.telemetry().otelVariables(), "dagnats",
                settings.http().address().isPresent());
    }

    @Provides
    @Singleton
    LeaseTelemetry telemetry(TelemetrySetup setup, Connection connection) {
        return setup.enabled()
                ? new OpenTelemetryLeaseTelemetry(setup.openTelemetry(), connection::getConnectedUrl, setup.metricsExported())
                : LeaseTelemetry.NONE;
    }
}
