package io.dagnats.leases.adapters.otel;

import io.opentelemetry.sdk.metrics.InstrumentSelector;
import io.opentelemetry.sdk.metrics.SdkMeterProviderBuilder;
import io.opentelemetry.sdk.metrics.View;
import java.util.Map;

/**
 * Names for the runtime instrumentation's three gauges that end in {@code .count}
 * ({@code jvm.thread.count}, {@code jvm.class.count}, {@code jvm.cpu.count}): as
 * Prometheus names ({@code jvm_thread_count}...) Prometheus' own linter refuses
 * them, reading {@code _count} as part of a histogram or summary. Views rename
 * them for every exporter alike, so a dashboard sees one name whatever carries it.
 */
final class RuntimeMetricNames {

    private static final String RUNTIME_SCOPE = "io.opentelemetry.runtime-telemetry";
    private static final Map<String, String> RENAMED = Map.of(
            "jvm.thread.count", "jvm.threads.current",
            "jvm.class.count", "jvm.classes.current",
            "jvm.cpu.count", "jvm.cpus.available");

    private RuntimeMetricNames() {
    }

    static SdkMeterProviderBuilder register(SdkMeterProviderBuilder meters) {
        RENAMED.forEach((name, renamed) -> meters.registerView(
                InstrumentSelector.builder().setMeterName(RUNTIME_SCOPE).setName(name).build(),
                View.builder().setName(renamed).build()));
        return meters;
    }
}
