package io.dagnats.leases.adapters.otel;

import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/** One CLIENT span per forward attempt; the owner's inbox request carries its context. */
final class TracedOwnerInbox implements OwnerInbox {

    private static final AttributeKey<String> RESULT = AttributeKey.stringKey("dagnats.lease.forward.result");

    private final OwnerInbox delegate;
    private final Tracer tracer;
    private final LongCounter attempts;

    TracedOwnerInbox(OwnerInbox delegate, Tracer tracer, LongCounter attempts) {
        this.delegate = delegate;
        this.tracer = tracer;
        this.attempts = attempts;
    }

    @Override
    public CompletionStage<Delivery> deliver(LeaseKey key, HolderId owner, Fence fence, byte[] payload, Duration timeout) {
        Span span = tracer.spanBuilder("send dagnats.lease.inbox")
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(OpenTelemetryLeaseTelemetry.MESSAGING_SYSTEM, "nats")
                .setAttribute(OpenTelemetryLeaseTelemetry.DESTINATION, "dagnats.lease.inbox." + owner + "." + key)
                .setAttribute(OpenTelemetryLeaseTelemetry.OPERATION_NAME, "send")
                .setAttribute(OpenTelemetryLeaseTelemetry.LEASE_KEY, key.value())
                .setAttribute(OpenTelemetryLeaseTelemetry.LEASE_HOLDER, owner.value())
                .setAttribute(OpenTelemetryLeaseTelemetry.LEASE_REVISION, fence.revision())
                .startSpan();
        return Spans.traced(span, () -> delegate.deliver(key, owner, fence, payload, timeout), delivery -> {
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
