package io.dagnats.leases.adapters.otel;

import io.dagnats.leases.application.LeaseCensus;
import io.opentelemetry.api.metrics.Meter;
import java.util.function.ToLongFunction;

/**
 * The lease gauges, from the latest census of the bucket: every instance
 * reports the same bucket-wide figures, so they are read with max, not summed.
 * Nothing is reported before the first census. Their names end in no
 * {@code .count}: as Prometheus names, a gauge ending in {@code _count} is
 * refused by Prometheus' own linter ({@code promtool check metrics}), which
 * reads it as part of a histogram or summary.
 */
final class CensusGauges {

    private volatile LeaseCensus.Count latest;

    CensusGauges(Meter meter) {
        gauge(meter, "dagnats.leases.held", "Leases held, as the latest census of the bucket found them",
                "{lease}", LeaseCensus.Count::leases);
        gauge(meter, "dagnats.lease.holders",
                "Distinct holders holding one lease or more, as the latest census found them",
                "{holder}", LeaseCensus.Count::holders);
    }

    void set(LeaseCensus.Count count) {
        latest = count;
    }

    private void gauge(Meter meter, String name, String description, String unit, ToLongFunction<LeaseCensus.Count> value) {
        meter.gaugeBuilder(name)
                .setDescription(description)
                .setUnit(unit)
                .ofLongs()
                .buildWithCallback(measurement -> {
                    LeaseCensus.Count count = latest;
                    if (count != null) {
                        measurement.record(value.applyAsLong(count));
                    }
                });
    }
}
