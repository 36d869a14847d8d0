package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.AttachedKeys;
import io.dagnats.leases.application.LeaseTelemetry.Facts;
import io.dagnats.leases.domain.Attaching;
import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.Caller;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Lost;
import io.dagnats.leases.domain.Moving;
import io.dagnats.leases.protocol.Request;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * attach, detach and move (ADR-043): each turns its decoded request into the use case's command and
 * its answer into the reply, as {@link LeaseHandlers} does for the guide's subjects. The
 * {@link Caller} puts the key and the member leases it names in the caller's namespace and binds the
 * holder id to the caller's principal (ADR-036), as for renew and release.
 */
final class AttachHandlers {

    private final AttachedKeys keys;

    AttachHandlers(AttachedKeys keys) {
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /** Like an acquire's answer: {@code granted} true or false with the key's lease view; lost for a member not held. */
    CompletionStage<Answer> attach(Request.Attach request, Caller caller) {
        AttachedKeys.Attach command = new AttachedKeys.Attach(caller.key(request.key().value()),
                caller.claimant(request.claimant()), new Attachment(caller.key(request.member().value()),
                        request.memberTenure(), request.value()));
        return keys.attach(command).thenApply(answer -> {
            if (answer instanceof Attaching.Granted granted) {
                return Answer.lease(granted.lease(), true, Facts.Result.GRANTED);
            }
            if (answer instanceof Attaching.HeldByOther held) {
                return Answer.lease(held.lease(), false, Facts.Result.HELD);
            }
            return Answer.lost((Lost) answer);
        });
    }

    /** Like a release's answer. */
    CompletionStage<Answer> detach(Request.Detach request, Caller caller) {
        AttachedKeys.Detach command = new AttachedKeys.Detach(caller.key(request.key().value()),
                caller.claimant(request.claimant()), request.revision());
        return keys.detach(command).thenApply(Answer::released);
    }

    /** The key's new lease view ({@code granted: true}, the successor as holder); lost; or {@code no_successor}. */
    CompletionStage<Answer> move(Request.Move request, Caller caller) {
        AttachedKeys.Move command = new AttachedKeys.Move(caller.key(request.key().value()),
                caller.claimant(request.claimant()), request.revision(), request.toHolder(), request.toIncarnation(),
                new Attachment(caller.key(request.toMember().value()), request.toMemberTenure(),
                        Optional.empty()));
        return keys.move(command).thenApply(answer -> {
            if (answer instanceof Moving.Moved moved) {
                return Answer.lease(moved.lease(), true, Facts.Result.GRANTED);
            }
            if (answer instanceof Moving.NoSuccessor none) {
                return Answer.failed(ErrorKind.NO_SUCCESSOR, none.sentence(), none.key());
            }
            return Answer.lost((Lost) answer);
        });
    }
}
