package io.dagnats.leases.adapters.otel;

import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import java.util.concurrent.CompletionStage;

/**
 * The lease store with a CLIENT span for every JetStream read and
 * compare-and-set write, as children of the request that made them. The
 * caller's trace context is restored around each completion, so the next
 * step of a use case (a write after a read) is recorded under the same request
 * (see {@link Spans#traced}).
 */
final class TracedLeaseStore implements LeaseStore {

    private static final AttributeKey<String> EVENT = AttributeKey.stringKey("dagnats.lease.event");
    private static final AttributeKey<Long> EXPECTED = AttributeKey.longKey("dagnats.lease.expected_sequence");
    private static final AttributeKey<String> RESULT = AttributeKey.stringKey("dagnats.lease.write.result");

    private final LeaseStore delegate;
    private final Tracer tracer;
    private final TelemetryFaults faults;

    TracedLeaseStore(LeaseStore delegate, Tracer tracer, TelemetryFaults faults) {
        this.delegate = delegate;
        this.tracer = tracer;
        this.faults = faults;
    }

    @Override
    public CompletionStage<KeyState> read(LeaseKey key) {
        return Spans.traced(faults, "a JetStream read",
                () -> start("read KV_leases", "$JS.API.STREAM.MSG.GET.KV_leases", key),
                () -> delegate.read(key),
                (span, state) -> span.setAttribute(OpenTelemetryLeaseTelemetry.LEASE_OUTCOME,
                        state instanceof KeyState.Held ? "held" : "free"));
    }

    @Override
    public CompletionStage<WriteOutcome> write(LeaseWrite write) {
        return Spans.traced(faults, "a JetStream write", () -> {
            Span span = start("publish $KV.leases", "$KV.leases." + write.key().value(), write.key());
            span.setAttribute(EVENT, write.event().wireName());
            span.setAttribute(EXPECTED, write.expectedSequence());
            return span;
        }, () -> delegate.write(write), TracedLeaseStore::annotate);
    }

    private static void annotate(Span span, WriteOutcome outcome) {
        if (outcome instanceof WriteOutcome.Written written) {
            span.setAttribute(RESULT, "written");
            span.setAttribute(OpenTelemetryLeaseTelemetry.LEASE_REVISION, written.revision().revision());
        } else if (outcome instanceof WriteOutcome.Withheld) {
            span.setAttribute(RESULT, "withheld");
        } else {
            span.setAttribute(RESULT, "conflict");
        }
    }

    @Override
    public Identity identity() {
        return delegate.identity();
    }

    @Override
    public void contradicted(String evidence) {
        delegate.contradicted(evidence);
    }

    private Span start(String name, String destination, LeaseKey key) {
        return tracer.spanBuilder(name)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(OpenTelemetryLeaseTelemetry.MESSAGING_SYSTEM, "nats")
                .setAttribute(OpenTelemetryLeaseTelemetry.DESTINATION, destination)
                .setAttribute(OpenTelemetryLeaseTelemetry.LEASE_KEY, key.value())
                .startSpan();
    }
}
