package io.dagnats.leases.bootstrap;

import io.dagnats.leases.adapters.http.MetricsExposition;
import io.dagnats.leases.adapters.otel.PrometheusScrape;
import java.io.OutputStream;
import java.io.IOException;
import java.util.Optional;

/**
 * {@code /metrics}: the OpenTelemetry adapter's Prometheus scrape behind the HTTP
 * adapter's port. With the SDK disabled ({@code OTEL_SDK_DISABLED=true}) there is
 * no scrape, and {@code /metrics} answers an empty exposition.
 */
final class ScrapedMetrics implements MetricsExposition {

    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final Optional<PrometheusScrape> scrape;

    ScrapedMetrics(Optional<PrometheusScrape> scrape) {
        this.scrape = scrape;
    }

    @Override
    public String contentType() {
        return scrape.map(PrometheusScrape::contentType).orElse(PROMETHEUS_TEXT);
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
        if (scrape.isPresent()) {
            scrape.get().writeTo(out);
        }
    }
}
