package io.dagnats.leases.application;

import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Sends a request to whichever process holds a key. It re-sends only after an
 * outcome that proves the owner did not process the request (no responders, or
 * a reject), and only to a lease that changed since; a timeout is never retried.
 */
public final class ForwardToOwner {

    /** Attempts one call may make, the first included. */
    public static final int MAX_ATTEMPTS = 3;
    /** The bounds the use case keeps to; the wire's own rule and default are the protocol's. */
    public static final Duration MIN_TIMEOUT = Duration.ofMillis(100);
    public static final Duration MAX_TIMEOUT = Duration.ofMillis(30_000);

    /** @param timeout bounds the whole call, every attempt included */
    public record Command(LeaseKey key, byte[] payload, Duration timeout) {
        public Command {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(payload, "payload");
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.compareTo(MIN_TIMEOUT) < 0 || timeout.compareTo(MAX_TIMEOUT) > 0) {
                throw new InvalidLeaseInput("a forward's timeout must be from " + MIN_TIMEOUT.toMillis() + " ms to "
                        + MAX_TIMEOUT.toMillis() + " ms");
            }
        }
    }

    /** The answer to a forward. Every case but {@link Delivered} and {@link NoOwner} names the owner last tried. */
    public sealed interface Outcome {

        /** The owner {@code owner} answered {@code reply} to a request fenced with its revision. */
        record Delivered(Lease owner, byte[] reply) implements Outcome {
        }

        /** Nobody holds the key. */
        record NoOwner(LeaseKey key) implements Outcome {
        }

        /** No subscriber on the owner's inbox, and no new owner to try. */
        record OwnerUnavailable(Lease lastTried) implements Outcome {
        }

        /** The owner rejected the fence as stale, and no new owner to try. */
        record OwnerRejected(Lease lastTried) implements Outcome {
        }

        /** The owner did not answer in time; it may have processed the request. */
        record OwnerTimeout(Lease lastTried) implements Outcome {
        }
    }

    private final LeaseStore store;
    private final OwnerInbox inbox;
    private final MonotonicClock clock;

    public ForwardToOwner(LeaseStore store, OwnerInbox inbox, MonotonicClock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.inbox = Objects.requireNonNull(inbox, "inbox");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public CompletionStage<Outcome> execute(Command command) {
        long deadline = clock.nanoTime() + command.timeout().toNanos();
        return attempt(command, deadline, 1, null);
    }

    /** @param refused the outcome of the previous attempt, which proved the request was not processed */
    private CompletionStage<Outcome> attempt(Command command, long deadline, int attempt, Outcome refused) {
        return store.read(command.key()).thenCompose(state -> {
            if (!(state instanceof KeyState.Held held)) {
                return done(refused == null ? new Outcome.NoOwner(command.key()) : refused);
            }
            Lease owner = held.lease();
            if (refused != null && sameLease(lastTried(refused), owner)) {
                return done(refused);
            }
            long left = deadline - clock.nanoTime();
            if (left <= 0) {
                return done(refused == null ? new Outcome.OwnerTimeout(owner) : refused);
            }
            return inbox.deliver(command.key(), owner.holder(), owner.revision(), command.payload(), Duration.ofNanos(left))
                    .thenCompose(delivery -> {
                        if (delivery instanceof OwnerInbox.Delivery.Replied replied) {
                            return done(new Outcome.Delivered(owner, replied.body()));
                        }
                        if (delivery instanceof OwnerInbox.Delivery.TimedOut) {
                            return done(new Outcome.OwnerTimeout(owner));
                        }
                        Outcome notProcessed = delivery instanceof OwnerInbox.Delivery.Rejected
                                ? new Outcome.OwnerRejected(owner)
                                : new Outcome.OwnerUnavailable(owner);
                        if (attempt >= MAX_ATTEMPTS) {
                            return done(notProcessed);
                        }
                        return attempt(command, deadline, attempt + 1, notProcessed);
                    });
        });
    }

    private static boolean sameLease(Lease tried, Lease now) {
        return tried.holder().equals(now.holder()) && tried.revision().equals(now.revision());
    }

    private static Lease lastTried(Outcome refused) {
        if (refused instanceof Outcome.OwnerRejected rejected) {
            return rejected.lastTried();
        }
        return ((Outcome.OwnerUnavailable) refused).lastTried();
    }

    private static CompletionStage<Outcome> done(Outcome outcome) {
        return CompletableFuture.completedFuture(outcome);
    }
}
