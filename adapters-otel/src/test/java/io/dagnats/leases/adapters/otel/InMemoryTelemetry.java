package io.dagnats.leases.adapters.otel;

import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.RevokeReason;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The telemetry adapter over an SDK that keeps its spans and metrics in memory, with the two
 * hand-written stores the tests observe through it: one that accepts every write, one that
 * answers reads later on another thread. Each test makes its own.
 */
final class InMemoryTelemetry {

    final InMemorySpanExporter spans = InMemorySpanExporter.create();
    final InMemoryMetricReader metrics = InMemoryMetricReader.create();
    final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    final LeaseTelemetry telemetry =
            new OpenTelemetryLeaseTelemetry(sdk, () -> "nats://10.0.0.7:4333", true);

    /** Accepts every write, at the next revision; the test sets which revision that is. */
    final WritingStore writingStore = new WritingStore();

    static final class WritingStore implements LeaseStore {
        long nextRevision = 1;

        @Override
        public CompletionStage<KeyState> read(LeaseKey key) {
            return CompletableFuture.completedFuture(new KeyState.Free(key, 0));
        }

        @Override
        public CompletionStage<WriteOutcome> write(LeaseWrite write) {
            return CompletableFuture.completedFuture(new WriteOutcome.Written(new Fence(nextRevision++)));
        }

        @Override
        public Identity identity() {
            return Identity.NONE;
        }

        @Override
        public CompletionStage<Optional<String>> report(Evidence evidence) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
    }

    /** Completes reads later, on another thread, as the NATS client does. */
    final LeaseStore slowStore = new LeaseStore() {
        @Override
        public CompletionStage<KeyState> read(LeaseKey key) {
            return CompletableFuture.supplyAsync(() -> new KeyState.Free(key, 0));
        }

        @Override
        public CompletionStage<WriteOutcome> write(LeaseWrite write) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Identity identity() {
            return Identity.NONE;
        }

        @Override
        public CompletionStage<Optional<String>> report(Evidence evidence) {
            throw new UnsupportedOperationException();
        }
    };

    static LeaseWrite.Put put(String key, LeaseEvent event, long expectedSequence) {
        return new LeaseWrite.Put(new LeaseKey(key), expectedSequence, event, Claimant.of(new HolderId("h")), Instant.EPOCH,
                Instant.EPOCH, new LeaseTtl(10_000), Optional.empty());
    }

    /** A release (or, with a reason, a revoke) of the lease {@code key} has at {@code revision}. */
    static LeaseWrite.Tombstone tombstone(String key, long revision, Optional<RevokeReason> revoked) {
        return new LeaseWrite.Tombstone(new Lease(new LeaseKey(key), new HolderId("h"), new Fence(revision),
                new Fence(revision), Instant.EPOCH, Instant.EPOCH, new LeaseTtl(10_000)), revoked);
    }
}
