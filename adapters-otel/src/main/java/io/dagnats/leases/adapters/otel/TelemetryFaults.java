package io.dagnats.leases.adapters.otel;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Where a fault of telemetry itself (an exporter, an instrument, a span the SDK
 * refuses) goes: logged the first time it happens at each place, with what it
 * was, and never thrown into the request being recorded. Once per place, not
 * once per request: a broken exporter would otherwise write a line for every
 * lease call.
 */
final class TelemetryFaults {

    private static final System.Logger LOG = System.getLogger(TelemetryFaults.class.getName());

    /** Logs a fault as one warning with its stack trace. */
    static final BiConsumer<String, RuntimeException> TO_LOG = (where, fault) -> LOG.log(System.Logger.Level.WARNING,
            "telemetry failed while " + where + " (logged once; the lease work goes on, unrecorded where it"
                    + " failed): " + fault, fault);

    private final Set<String> reported = ConcurrentHashMap.newKeySet();
    private final BiConsumer<String, RuntimeException> log;

    TelemetryFaults() {
        this(TO_LOG);
    }

    /** @param log where the first fault at each place goes; tests collect them */
    TelemetryFaults(BiConsumer<String, RuntimeException> log) {
        this.log = Objects.requireNonNull(log, "log");
    }

    /**
     * A telemetry fault at {@code where} (a fixed phrase, such as "ending a request span"):
     * logged if it is the first there, else dropped.
     */
    void report(String where, RuntimeException fault) {
        if (reported.add(where)) {
            try {
                log.accept(where, fault);
            } catch (RuntimeException loggingFault) {
                // Nowhere left to report it; the work must still go on.
            }
        }
    }
}
