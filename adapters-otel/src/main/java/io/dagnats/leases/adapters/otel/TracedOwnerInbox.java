package io.dagnats.leases.adapters.otel;

import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * One PRODUCER span per forward attempt (its context is the owner request's
 * creation context: it travels in that request's headers), and the attempt
 * counted by result.
 */
final class TracedOwnerInbox implements OwnerInbox {

    private static final AttributeKey<String> RESULT = AttributeKey.stringKey("dagnats.lease.forward.result");

    private final OwnerInbox delegate;
    private final Tracer tracer;
    private final ServerAddress server;
    private final LongCounter attempts;
    private final TelemetryFaults faults;

    TracedOwnerInbox(OwnerInbox delegate, Tracer tracer, ServerAddress server, LongCounter attempts,
            TelemetryFaults faults) {
        this.delegate = delegate;
        this.tracer = tracer;
        this.server = server;
        this.attempts = attempts;
        this.faults = faults;
    }

    @Override
    public CompletionStage<Delivery> deliver(LeaseKey key, Claimant owner, Fence fence, byte[] payload, Duration timeout) {
        return Spans.traced(faults, "a forward attempt", () -> MessagingSpan.builder(tracer, SpanKind.PRODUCER, "send",
                        "send", LeaseSubjects.inbox(owner, key), LeaseSubjects.inboxTemplate(owner), server)
                .setAttribute(LeaseAttributes.LEASE_KEY, key.value())
                .setAttribute(LeaseAttributes.LEASE_HOLDER, owner.holder().value())
                .setAttribute(LeaseAttributes.LEASE_REVISION, fence.revision())
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
