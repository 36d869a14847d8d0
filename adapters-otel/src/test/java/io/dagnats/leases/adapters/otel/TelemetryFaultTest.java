package io.dagnats.leases.adapters.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Telemetry never breaks the work: a fault of the SDK is logged once, and the request goes on. */
class TelemetryFaultTest {

    private final InMemoryTelemetry otel = new InMemoryTelemetry();
    private final OpenTelemetrySdk sdk = otel.sdk;
    private final LeaseStore slowStore = otel.slowStore;

    @Test
    void aTelemetryFaultIsLoggedOnceAndNeverReachesTheRequest() {
        List<String> logged = new CopyOnWriteArrayList<>();
        Tracer broken = new Tracer() {
            @Override
            public SpanBuilder spanBuilder(String spanName) {
                throw new IllegalStateException("exporter gone");
            }
        };
        OpenTelemetry faulty = new OpenTelemetry() {
            @Override
            public TracerProvider getTracerProvider() {
                return new TracerProvider() {
                    @Override
                    public Tracer get(String instrumentationScopeName) {
                        return broken;
                    }

                    @Override
                    public Tracer get(String instrumentationScopeName, String instrumentationScopeVersion) {
                        return broken;
                    }
                };
            }

            @Override
            public ContextPropagators getPropagators() {
                return sdk.getPropagators();
            }
        };
        LeaseTelemetry telemetry = new OpenTelemetryLeaseTelemetry(faulty, () -> null, true,
                new TelemetryFaults((where, fault) -> logged.add(where + ": " + fault.getMessage())));
        LeaseStore store = telemetry.observe(slowStore);

        for (int i = 0; i < 3; i++) {
            LeaseTelemetry.RequestRecord record = telemetry.startRequest("owner", "api.leases.owner", Map.of());
            KeyState state = record.within(() -> store.read(new LeaseKey("k"))).toCompletableFuture().join();
            record.end(new LeaseTelemetry.Facts.Free(state.key()));
        }

        assertEquals(List.of("starting a request span: exporter gone",
                "starting the span of a JetStream read: exporter gone"), logged);
    }
}
