package io.dagnats.leases.bootstrap;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.dagnats.leases.adapters.otel.OpenTelemetryLeaseTelemetry;
import io.dagnats.leases.application.LeaseTelemetry;
import io.opentelemetry.api.OpenTelemetry;

/** Telemetry: off (the no-op OpenTelemetry) until exporters are configured. */
final class TelemetryModule extends AbstractModule {

    @Provides
    @Singleton
    OpenTelemetry openTelemetry() {
        return OpenTelemetry.noop();
    }

    @Provides
    @Singleton
    LeaseTelemetry telemetry(OpenTelemetry openTelemetry) {
        return new OpenTelemetryLeaseTelemetry(openTelemetry);
    }
}
