package io.dagnats.leases.adapters.http;

import java.io.IOException;
import java.io.OutputStream;

/** What {@code /metrics} serves: the service's metrics, collected at the moment of the scrape. */
public interface MetricsExposition {

    /** The media type of {@link #writeTo}'s output, such as {@code text/plain; version=0.0.4; charset=utf-8}. */
    String contentType();

    /**
     * Collects the metrics and writes them.
     *
     * @throws IOException when {@code out} fails
     * @throws RuntimeException when the metrics cannot be collected; the scrape is answered 500
     */
    void writeTo(OutputStream out) throws IOException;
}
