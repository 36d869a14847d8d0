package io.dagnats.leases.adapters.otel;

import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * One CLIENT span per forward attempt, and the attempt counted by result; the
 * owner's inbox request carries its context.
 */
final class TracedOwnerInbox implements OwnerInbox {

    private static final AttributeKey<String> RESULT = AttributeKey.stringKey("dagnats.lease.forward.result");

    /** Named for the destination without the variable part, as the messaging conventions ask. */
    private static final String SPAN_NAME =
            "send " + LeaseSubjects.INBOX_PREFIX.substring(0, LeaseSubjects.INBOX_PREFIX.length() - 1);

    private final OwnerInbox delegate;
    private final Tracer tracer;
    private final LongCounter attempts;
    private final TelemetryFaults faults;

    TracedOwnerInbox(OwnerInbox delegate, Tracer tracer, LongCounter attempts, TelemetryFaults faults) {
        this.delegate = delegate;
        this.tracer = tracer;
        this.attempts = attempts;
        this.faults = faults;
    }

    @Override
    public CompletionStage<Delivery> deliver(LeaseKey key, HolderId owner, Fence fence, byte[] payload, Duration timeout) {
        return Spans.traced(faults, "a forward attempt", () -> tracer.spanBuilder(SPAN_NAME)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(OpenTelemetryLeaseTelemetry.MESSAGING_SYSTEM, "nats")
                .setAttribute(OpenTelemetryLeaseTelemetry.DESTINATION, LeaseSubjects.inbox(owner, key))
                .setAttribute(OpenTelemetryLeaseTelemetry.OPERATION_NAME, "send")
                .setAttribute(OpenTelemetryLeaseTelemetry.LEASE_KEY, key.value())
                .setAttribute(OpenTelemetryLeaseTelemetry.LEASE_HOLDER, owner.value())
                .setAttribute(OpenTelemetryLeaseTelemetry.LEASE_REVISION, fence.revision())
                .startSpan(), () -> delegate.deliver(key, owner, fence, payload, timeout), (span, delivery) -> {
                    String result = resultOf(delivery);
                    span.setAttribute(RESULT, result);
                    attempts.add(1, Attributes.of(RESULT, result));
                });
    }

    private static String resultOf(Delivery delivery) {
        if (delivery instanceof Delivery.Replied) {
            return "replied";
        }
        if (delivery instanceof Delivery.NoResponders) {
            return "no_responders";
        }
        return delivery instanceof Delivery.Rejected ? "rejected" : "timeout";
    }
}
