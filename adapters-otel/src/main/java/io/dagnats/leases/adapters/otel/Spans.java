package io.dagnats.leases.adapters.otel;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Supplier;

final class Spans {

    private Spans() {
    }

    /**
     * Runs {@code call} under {@code span}, ends the span when the stage completes,
     * and completes the returned stage under the caller's context. Stages chained on
     * it run synchronously during that completion, so they see the caller's span as
     * current even though the completing thread is the NATS client's.
     */
    static <T> CompletionStage<T> traced(Span span, Supplier<CompletionStage<T>> call, Consumer<T> onValue) {
        Context caller = Context.current();
        CompletionStage<T> inner;
        try (Scope ignored = span.makeCurrent()) {
            inner = call.get();
        }
        CompletableFuture<T> outer = new CompletableFuture<>();
        inner.whenComplete((value, failure) -> {
            try {
                if (failure != null) {
                    Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
                    span.setAttribute(OpenTelemetryLeaseTelemetry.ERROR_TYPE, cause.getClass().getSimpleName());
                    span.setStatus(StatusCode.ERROR, String.valueOf(cause.getMessage()));
                } else {
                    onValue.accept(value);
                }
                span.end();
            } catch (RuntimeException telemetryFault) {
                // Telemetry never breaks the work.
            }
            try (Scope ignored = caller.makeCurrent()) {
                if (failure != null) {
                    outer.completeExceptionally(failure);
                } else {
                    outer.complete(value);
                }
            }
        });
        return outer;
    }
}
