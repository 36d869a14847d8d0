package io.dagnats.leases.adapters.otel;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.instrumentation.runtimetelemetry.RuntimeTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenTelemetry as the standard {@code OTEL_*} variables configure it (SDK
 * autoconfigure). With no exporter or endpoint named, telemetry is off and
 * silent: the no-op OpenTelemetry, not an OTLP exporter retrying localhost.
 */
public final class TelemetrySetup implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(TelemetrySetup.class.getName());

    /** Variables that turn telemetry on: an exporter or an endpoint. */
    private static final Set<String> SWITCHES = Set.of(
            "OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
            "OTEL_EXPORTER_ZIPKIN_ENDPOINT");
    private static final String NONE = "none";
    /** The SDK's default export interval. */
    private static final Duration DEFAULT_METRIC_INTERVAL = Duration.ofMinutes(1);
    /** A duration as the SDK reads one: milliseconds, or a number with a unit. */
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)?");

    private final OpenTelemetry openTelemetry;
    private final OpenTelemetrySdk sdk;
    private final String description;
    private final boolean metricsExported;
    private final Duration metricInterval;
    private final Optional<PrometheusScrape> scrape;
    /** JVM metrics (memory, CPU, GC, threads, classes), when metrics go anywhere. */
    private final Optional<RuntimeTelemetry> runtime;

    private TelemetrySetup(OpenTelemetry openTelemetry, OpenTelemetrySdk sdk, String description,
            boolean metricsExported, Duration metricInterval, Optional<PrometheusScrape> scrape) {
        this.openTelemetry = openTelemetry;
        this.sdk = sdk;
        this.description = description;
        this.metricsExported = metricsExported;
        this.metricInterval = metricInterval;
        this.scrape = scrape;
        // An operator reading dagnats' metrics wants the JVM's beside them (heap, CPU, GC pauses):
        // OpenTelemetry's own runtime instrumentation, not a hand-made copy of it.
        this.runtime = metricsExported ? Optional.of(RuntimeTelemetry.create(openTelemetry)) : Optional.empty();
    }

    /**
     * Telemetry as the {@code OTEL_*} variables configure it, without a Prometheus scrape.
     *
     * @see #fromEnvironment(Map, String, boolean)
     */
    public static TelemetrySetup fromEnvironment(Map<String, String> otelVariables, String defaultServiceName) {
        return fromEnvironment(otelVariables, defaultServiceName, false);
    }

    /**
     * @param otelVariables the {@code OTEL_*} environment variables (name to value)
     * @param defaultServiceName {@code service.name} unless {@code OTEL_SERVICE_NAME} says otherwise
     * @param scraped whether metrics are also read by a Prometheus scrape ({@link #scrape()}): the SDK is
     *                then on for metrics even with no {@code OTEL_*} variable set, unless
     *                {@code OTEL_SDK_DISABLED=true}
     * @throws IllegalArgumentException when autoconfigure refuses the configuration
     */
    public static TelemetrySetup fromEnvironment(Map<String, String> otelVariables, String defaultServiceName,
            boolean scraped) {
        boolean disabled = "true".equalsIgnoreCase(otelVariables.get("OTEL_SDK_DISABLED"));
        boolean on = (scraped || otelVariables.keySet().stream().anyMatch(SWITCHES::contains)) && !disabled;
        if (!on) {
            return new TelemetrySetup(OpenTelemetry.noop(), null, disabled ? "telemetry off (OTEL_SDK_DISABLED)"
                    : "telemetry off (no OTEL_ exporter or endpoint set)", false, DEFAULT_METRIC_INTERVAL,
                    Optional.empty());
        }
        Map<String, String> properties = new HashMap<>();
        properties.put("otel.service.name", defaultServiceName);
        // Only what was asked for: a signal whose exporter is not named goes where its endpoint
        // says, and nowhere when none does (no OTLP retrying a collector nobody named).
        properties.put("otel.traces.exporter", otelVariables.containsKey("OTEL_EXPORTER_OTLP_ENDPOINT")
                || otelVariables.containsKey("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") ? "otlp"
                : otelVariables.containsKey("OTEL_EXPORTER_ZIPKIN_ENDPOINT") ? "zipkin" : NONE);
        properties.put("otel.metrics.exporter", otelVariables.containsKey("OTEL_EXPORTER_OTLP_ENDPOINT")
                || otelVariables.containsKey("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT") ? "otlp" : NONE);
        properties.put("otel.logs.exporter", NONE);
        // The protocol the OTLP specification names as the default (port 4318); the Java SDK's own is gRPC.
        properties.put("otel.exporter.otlp.protocol", "http/protobuf");
        otelVariables.forEach((name, value) -> properties.put(name.toLowerCase(Locale.ROOT).replace('_', '.'), value));
        String metrics = properties.get("otel.metrics.exporter");
        Optional<PrometheusScrape> scrape = scraped ? Optional.of(new PrometheusScrape()) : Optional.empty();
        String metricsPhrase = scrape.isEmpty() ? metrics
                : NONE.equals(metrics) ? "prometheus scrape" : metrics + " and prometheus scrape";
        try {
            OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(() -> properties)
                    .addMeterProviderCustomizer((meters, config) -> {
                        scrape.ifPresent(scraping -> meters.registerMetricReader(scraping.reader()));
                        return RuntimeMetricNames.register(meters);
                    })
                    .disableShutdownHook()
                    .build()
                    .getOpenTelemetrySdk();
            return new TelemetrySetup(sdk, sdk, "telemetry on (traces: " + properties.get("otel.traces.exporter")
                    + ", metrics: " + metricsPhrase + ", service.name " + properties.get("otel.service.name") + ")",
                    !NONE.equals(metrics) || scrape.isPresent(),
                    metricInterval(otelVariables.get("OTEL_METRIC_EXPORT_INTERVAL")), scrape);
        } catch (RuntimeException refused) {
            throw new IllegalArgumentException("the OTEL_ settings are not usable: " + refused.getMessage(), refused);
        }
    }

    public OpenTelemetry openTelemetry() {
        return openTelemetry;
    }

    public boolean enabled() {
        return sdk != null;
    }

    /**
     * The Prometheus scrape of the metrics, when one was asked for and telemetry is not disabled;
     * it reads the same instruments as every exporter.
     */
    public Optional<PrometheusScrape> scrape() {
        return scrape;
    }

    /**
     * Whether any metrics exporter or scrape is on: what only metrics need (counting expiries, the
     * census) is worth doing.
     */
    public boolean metricsExported() {
        return metricsExported;
    }

    /** How often metrics are exported ({@code OTEL_METRIC_EXPORT_INTERVAL}, 60 s unless set). */
    public Duration metricInterval() {
        return metricInterval;
    }

    private static Duration metricInterval(String value) {
        Matcher matcher = value == null ? null : DURATION.matcher(value.strip());
        if (matcher == null || !matcher.matches()) {
            // Unset, or a value the SDK refused already: it would not have started.
            return DEFAULT_METRIC_INTERVAL;
        }
        long amount = Long.parseLong(matcher.group(1));
        String unit = matcher.group(2) == null ? "ms" : matcher.group(2);
        return switch (unit) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            case "d" -> Duration.ofDays(amount);
            default -> Duration.ofMillis(amount);
        };
    }

    /** One phrase for the start-up line. */
    public String describe() {
        return description;
    }

    /**
     * Flushes what is buffered and stops the exporters, waiting at most a few
     * seconds: an unreachable backend must not hold up a stop.
     */
    @Override
    public void close() {
        runtime.ifPresent(RuntimeTelemetry::close);
        if (sdk != null) {
            CompletableResultCode stopped = sdk.shutdown().join(3, TimeUnit.SECONDS);
            if (!stopped.isSuccess()) {
                // Telemetry is lost, not the work: one line, so the gap in the traces has an explanation.
                LOG.log(System.Logger.Level.WARNING, "telemetry did not flush and stop within 3 s"
                        + (stopped.getFailureThrowable() == null ? "" : ": " + stopped.getFailureThrowable()));
            }
        }
    }
}
