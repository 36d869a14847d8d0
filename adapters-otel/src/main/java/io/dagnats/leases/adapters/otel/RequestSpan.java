package io.dagnats.leases.adapters.otel;

import static io.dagnats.leases.adapters.otel.LeaseAttributes.ERROR_TYPE;
import static io.dagnats.leases.adapters.otel.LeaseAttributes.LEASE_HOLDER;
import static io.dagnats.leases.adapters.otel.LeaseAttributes.LEASE_KEY;
import static io.dagnats.leases.adapters.otel.LeaseAttributes.LEASE_OPERATION;
import static io.dagnats.leases.adapters.otel.LeaseAttributes.LEASE_OUTCOME;
import static io.dagnats.leases.adapters.otel.LeaseAttributes.LEASE_REVISION;

import io.dagnats.leases.application.LeaseTelemetry.Facts;
import io.dagnats.leases.application.LeaseTelemetry.RequestRecord;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.protocol.Kinds;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import java.util.function.Supplier;

/**
 * The record of one lease request: its CONSUMER span, ended with what the request
 * came to, and the request counted and timed (and a lost answer counted as a lease event).
 */
final class RequestSpan implements RequestRecord {

    private final String operation;
    private final Span span;
    private final long startedNanos;
    private final LongCounter requests;
    private final DoubleHistogram duration;
    private final LeaseEvents events;
    private final TelemetryFaults faults;

    RequestSpan(String operation, Span span, long startedNanos, LongCounter requests, DoubleHistogram duration,
            LeaseEvents events, TelemetryFaults faults) {
        this.operation = operation;
        this.span = span;
        this.startedNanos = startedNanos;
        this.requests = requests;
        this.duration = duration;
        this.events = events;
        this.faults = faults;
    }

    @Override
    public <T> T within(Supplier<T> work) {
        Scope scope;
        try {
            scope = span.makeCurrent();
        } catch (RuntimeException fault) {
            faults.report("making a request span current", fault);
            return work.get();
        }
        try (scope) {
            return work.get();
        }
    }

    @Override
    public void end(Facts facts) {
        try {
            String outcome = describe(facts);
            span.setAttribute(LEASE_OUTCOME, outcome);
            span.end();
            requests.add(1, Attributes.of(LEASE_OPERATION, operation, LEASE_OUTCOME, outcome));
            duration.record((System.nanoTime() - startedNanos) / 1e9, Attributes.of(LEASE_OPERATION, operation));
        } catch (RuntimeException fault) {
            faults.report("ending a request span", fault);
        }
    }

    /** Sets what {@code facts} name on the span; returns the outcome's name. */
    private String describe(Facts facts) {
        if (facts instanceof Facts.Answered answered) {
            span.setAttribute(LEASE_KEY, answered.key().value());
            span.setAttribute(LEASE_HOLDER, answered.holder().value());
            span.setAttribute(LEASE_REVISION, answered.fence().revision());
            return outcomeName(answered.result());
        }
        if (facts instanceof Facts.Free free) {
            span.setAttribute(LEASE_KEY, free.key().value());
            return "free";
        }
        if (facts instanceof Facts.Listed) {
            return "listed";
        }
        Facts.Failed failed = (Facts.Failed) facts;
        if (failed.key().isPresent()) {
            span.setAttribute(LEASE_KEY, failed.key().get().value());
        }
        if (failed.lastTried().isPresent()) {
            Lease lastTried = failed.lastTried().get();
            span.setAttribute(LEASE_HOLDER, lastTried.holder().value());
            span.setAttribute(LEASE_REVISION, lastTried.revision().revision());
        }
        if (failed.kind() == ErrorKind.LOST) {
            events.lost();
        }
        String kind = Kinds.wireName(failed.kind());
        // An outcome, not an exception: bad input and lost carry no stack trace.
        span.setAttribute(ERROR_TYPE, kind);
        if (isServerFault(failed.kind())) {
            span.setStatus(StatusCode.ERROR, kind);
        }
        return kind;
    }

    /** A lease answer's outcome name in spans and metrics; an error reply's is its wire kind. */
    private static String outcomeName(Facts.Result result) {
        return switch (result) {
            case GRANTED -> "granted";
            case HELD -> "held";
            case RENEWED -> "renewed";
            case RELEASED -> "released";
            case DELIVERED -> "delivered";
            case REVOKED -> "revoked";
            case HANDED_OVER -> "handed_over";
        };
    }

    /** Kinds that mean the service, not the caller, failed: the span's status is an error. */
    private static boolean isServerFault(ErrorKind kind) {
        return kind == ErrorKind.INTERNAL || kind == ErrorKind.UNAVAILABLE;
    }
}
