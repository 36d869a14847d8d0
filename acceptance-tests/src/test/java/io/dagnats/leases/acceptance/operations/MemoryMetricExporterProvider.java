package io.dagnats.leases.acceptance.operations;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.metrics.ConfigurableMetricExporterProvider;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code OTEL_METRICS_EXPORTER=memory}: what an in-process dagnats exported
 * last, by its {@code service.name}, for tests to read as a backend would.
 */
public final class MemoryMetricExporterProvider implements ConfigurableMetricExporterProvider {

    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");
    /** service.name to metric name to the last export of it (cumulative). */
    private static final Map<String, Map<String, MetricData>> EXPORTED = new ConcurrentHashMap<>();
    private static final Map<String, Integer> EXPORTS = new ConcurrentHashMap<>();

    @Override
    public String getName() {
        return "memory";
    }

    @Override
    public MetricExporter createExporter(ConfigProperties config) {
        return new MetricExporter() {
            @Override
            public CompletableResultCode export(Collection<MetricData> metrics) {
                Set<String> services = new HashSet<>();
                for (MetricData metric : metrics) {
                    String service = metric.getResource().getAttribute(SERVICE_NAME);
                    EXPORTED.computeIfAbsent(service, name -> new ConcurrentHashMap<>()).put(metric.getName(), metric);
                    services.add(service);
                }
                services.forEach(service -> EXPORTS.merge(service, 1, Integer::sum));
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode flush() {
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode shutdown() {
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
                return AggregationTemporality.CUMULATIVE;
            }
        };
    }

    /** How many exports {@code service} has made so far. */
    static int exports(String service) {
        return EXPORTS.getOrDefault(service, 0);
    }

    /** The last exported value of a long counter or gauge point of {@code service} with {@code attribute=value}; 0 if none. */
    static long value(String service, String metric, String attribute, String value) {
        MetricData data = EXPORTED.getOrDefault(service, Map.of()).get(metric);
        if (data == null) {
            return 0;
        }
        Collection<? extends LongPointData> points = data.getType() == MetricDataType.LONG_GAUGE
                ? data.getLongGaugeData().getPoints() : data.getLongSumData().getPoints();
        return points.stream()
                .filter(point -> attribute == null || value.equals(point.getAttributes().get(AttributeKey.stringKey(attribute))))
                .mapToLong(LongPointData::getValue)
                .sum();
    }
}
