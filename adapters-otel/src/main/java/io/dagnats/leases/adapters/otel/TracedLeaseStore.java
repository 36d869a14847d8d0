package io.dagnats.leases.adapters.otel;

import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The lease store with a CLIENT span for every JetStream read and
 * compare-and-set write, as children of the request that made them, and every
 * accepted write counted as a lease event. The caller's trace context is
 * restored around each completion, so the next step of a use case (a write
 * after a read) is recorded under the same request (see {@link Spans#traced}).
 *
 * <p>Both are synchronous calls to JetStream whose context travels in no stored
 * message: CLIENT spans, a read of a key's last message ({@code receive},
 * JetStream's message get) and a write ({@code send}, a publish JetStream acknowledges).
 */
final class TracedLeaseStore implements LeaseStore {

    private static final AttributeKey<Long> EXPECTED = AttributeKey.longKey("dagnats.lease.expected_sequence");
    private static final AttributeKey<String> RESULT = AttributeKey.stringKey("dagnats.lease.write.result");
    /** The bucket's subjects: this and the key. */
    private static final String KEY_SUBJECT_PREFIX = "$KV.leases.";
    private static final String KEY_SUBJECT_TEMPLATE = KEY_SUBJECT_PREFIX + "{key}";

    private final LeaseStore delegate;
    private final Tracer tracer;
    private final ServerAddress server;
    private final LeaseEvents events;
    private final TelemetryFaults faults;

    TracedLeaseStore(LeaseStore delegate, Tracer tracer, ServerAddress server, LeaseEvents events,
            TelemetryFaults faults) {
        this.delegate = delegate;
        this.tracer = tracer;
        this.server = server;
        this.events = events;
        this.faults = faults;
    }

    @Override
    public CompletionStage<KeyState> read(LeaseKey key) {
        return Spans.traced(faults, "a JetStream read",
                () -> start(SpanKind.CLIENT, "receive", "get", key),
                () -> delegate.read(key),
                (span, state) -> span.setAttribute(LeaseAttributes.LEASE_OUTCOME,
                        state instanceof KeyState.Held ? "held" : "free"));
    }

    @Override
    public CompletionStage<WriteOutcome> write(LeaseWrite write) {
        return Spans.traced(faults, "a JetStream write", () -> {
            Span span = start(SpanKind.CLIENT, "send", "publish", write.key());
            span.setAttribute(LeaseEvents.EVENT, write.event().wireName());
            span.setAttribute(EXPECTED, write.expectedSequence());
            return span;
        }, () -> delegate.write(write), (span, outcome) -> annotate(span, write, outcome));
    }

    private void annotate(Span span, LeaseWrite write, WriteOutcome outcome) {
        if (outcome instanceof WriteOutcome.Written written) {
            span.setAttribute(RESULT, "written");
            span.setAttribute(LeaseAttributes.LEASE_REVISION, written.revision().revision());
            events.written(write, written.revision());
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
    public CompletionStage<Optional<String>> report(Evidence evidence) {
        return delegate.report(evidence);
    }

    private Span start(SpanKind kind, String type, String operation, LeaseKey key) {
        return MessagingSpan.builder(tracer, kind, type, operation, KEY_SUBJECT_PREFIX + key.value(),
                        KEY_SUBJECT_TEMPLATE, server)
                .setAttribute(LeaseAttributes.LEASE_KEY, key.value())
                .startSpan();
    }
}
