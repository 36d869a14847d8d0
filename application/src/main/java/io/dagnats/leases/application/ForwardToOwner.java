package io.dagnats.leases.application;

import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Sends a request to whichever process holds a key. It re-sends only after an
 * outcome that proves the owner did not process the request (no responders, or
 * a reject), and only to a lease that changed since; a timeout is never retried.
 *
 * <p>When this instance remembers the key held (ADR-025, only of a store whose
 * fences never repeat), the first attempt goes to that holder under the
 * remembered fence at once, without a read (ADR-032). The owner's own check is
 * the staleness check: a holder accepts a fence only while it acts as owner of
 * the tenure that fence belongs to, so a remembered holder that lost the key
 * rejects (or is not listening), and the call reads the leader and goes on as
 * after any refusal. Only the owner's own answer (its reply, or its silence) is
 * ever reported from a remembered route; every other answer comes from a read.
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

    private final LeaseWriter writer;
    private final OwnerInbox inbox;
    private final MonotonicClock clock;

    /** @param writer reads the key for the call, held against the memory of known leases */
    public ForwardToOwner(LeaseWriter writer, OwnerInbox inbox, MonotonicClock clock) {
        this.writer = Objects.requireNonNull(writer, "writer");
        this.inbox = Objects.requireNonNull(inbox, "inbox");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** @param wallClock what a remembered lease's advisory expiry is compared with */
    public ForwardToOwner(LeaseStore store, KnownLeases known, OwnerInbox inbox, MonotonicClock clock, Clock wallClock) {
        this(new LeaseWriter(store, known, wallClock), inbox, clock);
    }

    public CompletionStage<Outcome> execute(Command command) {
        long deadline = clock.nanoTime() + command.timeout().toNanos();
        LeaseWriter.Call call = writer.begin();
        // The holder last seen holding the key, while that write's advisory expiry is still ahead. Past
        // it, the lease was renewed elsewhere or has ended: a read is the better route, and a process
        // that froze while owner is never chosen from memory after its lease ran out.
        Optional<Lease> remembered = call.rememberedLease(command.key());
        if (remembered.isEmpty()) {
            return attempt(command, call, deadline, 1, null);
        }
        // Sent before any read: the owner's tenure check, not this memory, decides whether it serves.
        return deliver(command, call, deadline, 1, remembered.get(), true);
    }

    /**
     * @param refused the outcome of the previous attempt, which proved the request was not
     *                processed; null on the first attempt, and after a remembered route's refusal,
     *                whose lease the read must confirm before it can be an answer (see {@code tried})
     */
    private CompletionStage<Outcome> attempt(Command command, LeaseWriter.Call call, long deadline, int attempt,
            Refusal refused) {
        return call.read(command.key()).thenCompose(state -> {
            if (!(state instanceof KeyState.Held held)) {
                boolean nothingLearnt = refused == null || refused.remembered();
                return done(nothingLearnt ? new Outcome.NoOwner(command.key()) : refused.outcome());
            }
            Lease owner = held.lease();
            if (refused != null && sameLease(refused.tried(), owner)) {
                return done(refused.outcome());
            }
            if (refused != null && deadline - clock.nanoTime() <= 0) {
                return done(refused.outcome());
            }
            return deliver(command, call, deadline, attempt, owner, false);
        });
    }

    private CompletionStage<Outcome> deliver(Command command, LeaseWriter.Call call, long deadline, int attempt,
            Lease owner, boolean remembered) {
        long left = deadline - clock.nanoTime();
        if (left <= 0) {
            return done(new Outcome.OwnerTimeout(owner));
        }
        return inbox.deliver(command.key(), owner.claimant(), owner.revision(), command.payload(), Duration.ofNanos(left))
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
                    return attempt(command, call, deadline, attempt + 1, new Refusal(owner, notProcessed, remembered));
                });
    }

    /**
     * An attempt that proved the request was not processed.
     *
     * @param remembered the attempt went to a remembered holder without a read: its refusal is an
     *                   answer only once a read shows that same lease (a free key is then {@code no_owner})
     */
    private record Refusal(Lease tried, Outcome outcome, boolean remembered) {
    }

    private static boolean sameLease(Lease tried, Lease now) {
        return tried.claimant().equals(now.claimant()) && tried.revision().equals(now.revision());
    }

    private static CompletionStage<Outcome> done(Outcome outcome) {
        return CompletableFuture.completedFuture(outcome);
    }
}
