package io.dagnats.leases.adapters.otel;

import io.dagnats.leases.application.LeaseCensus;
import io.opentelemetry.api.metrics.Meter;

/**
 * The lease gauges, from the latest census of the bucket: every instance
 * reports the same bucket-wide figures, so they are read with max, not summed.
 * Nothing is reported before the first census.
 */
final class CensusGauges {

    private volatile LeaseCensus.Count latest;

    CensusGauges(Meter meter) {
        meter.gaugeBuilder("dagnats.lease.count")
                .setDescription("Leases held, as the latest census of the bucket found them")
                .setUnit("{lease}")
                .ofLongs()
                .buildWithCallback(measurement -> {
                    LeaseCensus.Count count = latest;
                    if (count != null) {
                        measurement.record(count.leases());
                    }
                });
        meter.gaugeBuilder("dagnats.lease.owner.count")
                .setDescription("Distinct holders holding one lease or more, as the latest census found them")
                .setUnit("{holder}")
                .ofLongs()
                .buildWithCallback(measurement -> {
                    LeaseCensus.Count count = latest;
                    if (count != null) {
                        measurement.record(count.holders());
                    }
                });
    }

    void set(LeaseCensus.Count count) {
        latest = count;
    }
}
