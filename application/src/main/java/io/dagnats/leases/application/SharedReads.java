package io.dagnats.leases.application;

import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The store with concurrent reads of one key shared (a single flight per key),
 * and nothing else changed: writes, identity and reports pass through.
 *
 * <p>A read joins only a leader read <em>sent after it was asked for</em>, never
 * one already in flight (ADR-032). A read in flight may have been answered by the
 * leader before this caller's request arrived, and so miss a write acknowledged
 * in between: a client that saw its acquire acknowledged and then asked
 * {@code owner} could be told the key is free. So while a read of the key is in
 * flight, callers gather for the next one, which is sent the moment the current
 * one ends; every caller's answer then comes from a read the leader served after
 * the caller asked, and before it was answered. At most one read per key is in
 * flight, and at most one is waiting to be sent.
 *
 * <p>The store's reads must always end (the NATS store's end by their own
 * deadline): a read that never ended would hold every later read of its key.
 */
public final class SharedReads implements LeaseStore {

    /**
     * The read of a key in flight, and the callers gathered for the one to send when it ends
     * ({@code null} while nobody waits). Replaced, never changed, under the map's lock of the key.
     */
    private record Flight(CompletableFuture<KeyState> sent, CompletableFuture<KeyState> next) {
    }

    private final LeaseStore store;
    private final ConcurrentHashMap<LeaseKey, Flight> flights = new ConcurrentHashMap<>();

    public SharedReads(LeaseStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public CompletionStage<KeyState> read(LeaseKey key) {
        CompletableFuture<KeyState> fresh = new CompletableFuture<>();
        Flight flight = flights.compute(key, (ignored, current) -> {
            if (current == null) {
                return new Flight(fresh, null);
            }
            return current.next() == null ? new Flight(current.sent(), fresh) : current;
        });
        if (flight.sent() == fresh) {
            send(key, fresh);
        }
        CompletableFuture<KeyState> mine = flight.sent() == fresh ? fresh : flight.next();
        // Callers get their own stage: none of them can complete the shared one for the others.
        return mine.minimalCompletionStage();
    }

    private void send(LeaseKey key, CompletableFuture<KeyState> flight) {
        CompletionStage<KeyState> read;
        try {
            read = store.read(key);
        } catch (RuntimeException bug) {
            read = CompletableFuture.failedFuture(bug);
        }
        read.whenComplete((state, failure) -> {
            // Hand over first: those who asked while this read was in flight get a read of their own.
            Flight after = flights.compute(key, (ignored, current) ->
                    current.next() == null ? null : new Flight(current.next(), null));
            if (after != null) {
                send(key, after.sent());
            }
            if (failure != null) {
                flight.completeExceptionally(failure);
            } else {
                flight.complete(state);
            }
        });
    }

    @Override
    public CompletionStage<WriteOutcome> write(LeaseWrite write) {
        return store.write(write);
    }

    @Override
    public Identity identity() {
        return store.identity();
    }

    @Override
    public CompletionStage<Optional<String>> report(Evidence evidence) {
        return store.report(evidence);
    }

    /** Keys with a read in flight now; for tests. */
    int inFlight() {
        return flights.size();
    }
}
