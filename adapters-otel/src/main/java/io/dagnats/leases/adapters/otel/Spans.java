package io.dagnats.leases.adapters.otel;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

final class Spans {

    private Spans() {
    }

    /**
     * Runs {@code call} under the span {@code start} begins, ends the span when the
     * stage completes, and completes the returned stage under the caller's context.
     * Stages chained on it run synchronously during that completion, so they see the
     * caller's span as current even though the completing thread is the NATS client's.
     *
     * <p>A telemetry fault (starting, annotating or ending the span) goes to
     * {@code faults}; the call runs and its stage completes all the same.
     *
     * @param what    the call, for a fault's log line ("a JetStream read")
     * @param onValue annotates the span with the call's answer
     */
    static <T> CompletionStage<T> traced(TelemetryFaults faults, String what, Supplier<Span> start,
            Supplier<CompletionStage<T>> call, BiConsumer<Span, T> onValue) {
        Context caller = Context.current();
        Span span;
        try {
            span = start.get();
        } catch (RuntimeException fault) {
            faults.report("starting the span of " + what, fault);
            return call.get();
        }
        CompletionStage<T> inner;
        try (Scope ignored = enter(span, faults, what)) {
            inner = call.get();
        }
        CompletableFuture<T> outer = new CompletableFuture<>();
        inner.whenComplete((value, failure) -> {
            try {
                if (failure != null) {
                    Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
                    span.setAttribute(LeaseAttributes.ERROR_TYPE, cause.getClass().getSimpleName());
                    span.setStatus(StatusCode.ERROR, String.valueOf(cause.getMessage()));
                } else {
                    onValue.accept(span, value);
                }
                span.end();
            } catch (RuntimeException fault) {
                faults.report("ending the span of " + what, fault);
            }
            Scope restored = restore(caller, faults, what);
            try {
                if (failure != null) {
                    outer.completeExceptionally(failure);
                } else {
                    outer.complete(value);
                }
            } finally {
                restored.close();
            }
        });
        return outer;
    }

    /** {@code span} made current; when that fails, it is still ended, but what the call starts is not under it. */
    private static Scope enter(Span span, TelemetryFaults faults, String what) {
        try {
            return span.makeCurrent();
        } catch (RuntimeException fault) {
            faults.report("making the span of " + what + " current", fault);
            return Scope.noop();
        }
    }

    /** The caller's context made current again; when that fails, the stage still completes, just without it. */
    private static Scope restore(Context caller, TelemetryFaults faults, String what) {
        try {
            return caller.makeCurrent();
        } catch (RuntimeException fault) {
            faults.report("restoring the caller's context after " + what, fault);
            return Scope.noop();
        }
    }
}
