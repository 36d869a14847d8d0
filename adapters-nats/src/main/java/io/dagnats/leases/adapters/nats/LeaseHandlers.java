package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.AcquireLease;
import io.dagnats.leases.application.LeaseTelemetry.Facts;
import io.dagnats.leases.application.ReadLease;
import io.dagnats.leases.application.ReleaseLease;
import io.dagnats.leases.application.RenewLease;
import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.Caller;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Lost;
import io.dagnats.leases.domain.Renewal;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Request;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * acquire, renew, release and owner: each turns its decoded request into the
 * use case's command, and the use case's answer into the reply. Failures are
 * left to the stage; {@link Failures} maps them. The {@link Caller} decides whose
 * namespace the key is in and binds the holder id to the caller's principal (ADR-036);
 * with identity mode off it changes nothing.
 */
final class LeaseHandlers {

    private final AcquireLease acquire;
    private final RenewLease renew;
    private final ReleaseLease release;
    private final ReadLease owner;

    LeaseHandlers(AcquireLease acquire, RenewLease renew, ReleaseLease release, ReadLease owner) {
        this.acquire = Objects.requireNonNull(acquire, "acquire");
        this.renew = Objects.requireNonNull(renew, "renew");
        this.release = Objects.requireNonNull(release, "release");
        this.owner = Objects.requireNonNull(owner, "owner");
    }

    CompletionStage<Answer> acquire(Request.Acquire request, Caller caller) {
        AcquireLease.Command command = new AcquireLease.Command(
                caller.key(request.key().value()), caller.claimant(request.claimant()), request.ttl());
        return acquire.execute(command).thenApply(acquisition -> acquisition instanceof Acquisition.Granted granted
                ? Answer.lease(granted.lease(), true, Facts.Result.GRANTED)
                : Answer.lease(acquisition.lease(), false, Facts.Result.HELD));
    }

    CompletionStage<Answer> renew(Request.Renew request, Caller caller) {
        RenewLease.Command command = new RenewLease.Command(caller.key(request.key().value()),
                caller.claimant(request.claimant()), request.revision(), request.ttl());
        return renew.execute(command).thenApply(renewal -> renewal instanceof Renewal.Renewed renewed
                ? Answer.lease(renewed.lease(), true, Facts.Result.RENEWED)
                : Answer.lost((Lost) renewal));
    }

    CompletionStage<Answer> release(Request.Release request, Caller caller) {
        ReleaseLease.Command command = new ReleaseLease.Command(caller.key(request.key().value()),
                caller.claimant(request.claimant()), request.revision());
        return release.execute(command).thenApply(Answer::released);
    }

    /** A leader read, held against the memory of known leases ({@link ReadLease}), in the caller's namespace. */
    CompletionStage<Answer> owner(Request.Owner request, Caller caller) {
        Optional<LeaseKey> named = caller.named(request.key().value(), request.account());
        if (named.isEmpty()) {
            return CompletableFuture.completedFuture(Answer.failed(ErrorKind.FORBIDDEN,
                    "identity mode: only an operator account may look at another account's lease"));
        }
        LeaseKey key = named.get();
        return owner.execute(key).thenApply(state -> state instanceof KeyState.Held held
                ? Answer.of(Replies.owner(state), Facts.Result.HELD, held.lease())
                : new Answer(Replies.owner(state), new Facts.Free(key)));
    }
}
