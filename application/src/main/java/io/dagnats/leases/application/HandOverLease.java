package io.dagnats.leases.application;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Decision;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Handover;
import io.dagnats.leases.domain.HandoverCheck;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseRules;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The owner hands its lease to a named successor (ADR-042): a leader read checked as a renew would
 * be (so a caller that is not the owner at the revision it sent learns only what a renew teaches it),
 * and, at the same time, the successor asked whether it waits (ADR-046: the two no longer follow one
 * another, which cost the handover's gap a leader read); then, only with both, one compare-and-set on
 * the revision read, through the one write path. The successor's "yes" is only
 * ever a reason to try the write, never a reason for it to succeed: the write applies only while the
 * key is still the caller's at exactly that revision. Once written, the successor is granted the lease
 * in answer to its yes (ADR-046), before the caller hears of it; the write itself names the check
 * that yes answered (ADR-047), so its change event, republished by the server as the write lands,
 * tells the successor sooner still.
 */
public final class HandOverLease {

    /** The longest the successor is given to answer: a holder's handover call must fit in its own timeout. */
    public static final Duration SUCCESSOR_TIMEOUT = Duration.ofSeconds(1);

    /**
     * @param successor the holder id and incarnation the new lease names (the caller's principal binds it)
     * @param ttl       the successor's TTL; empty keeps the lease's current one
     */
    public record Command(LeaseKey key, Claimant holder, Fence revision, Claimant successor, Optional<LeaseTtl> ttl) {
        public Command {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(revision, "revision");
            Objects.requireNonNull(successor, "successor");
            Objects.requireNonNull(ttl, "ttl");
        }
    }

    private final LeaseWriter writer;
    private final SuccessorCheck successors;

    public HandOverLease(LeaseWriter writer, SuccessorCheck successors) {
        this.writer = Objects.requireNonNull(writer, "writer");
        this.successors = Objects.requireNonNull(successors, "successors");
    }

    /** Fails {@link ErrorKind#NO_SUCCESSOR} when the successor did not say it waits: then nothing was written. */
    public CompletionStage<Handover> execute(Command command) {
        PresentedRevision<Handover> presented = new PresentedRevision<>(command.key(), command.revision(),
                command.ttl());
        CallRules<Handover> rules = rules(command, presented, Optional.empty());
        // The successor is asked while the key is read: the two are independent, and the write needs both.
        CompletionStage<SuccessorCheck.Reply> asked = successors.ask(command.key(), command.successor(),
                SUCCESSOR_TIMEOUT);
        // Through the leader, and remembered: the write below then proposes exactly the revision read.
        return writer.begin().read(command.key()).thenCompose(state -> {
            Decision<Handover> decision = rules.decide(state);
            if (decision instanceof Decision.Answer<Handover> answer) {
                return presented.checked(writer, answer.outcome());
            }
            return asked.thenCompose(reply -> {
                if (reply instanceof SuccessorCheck.Reply.NotWaiting notWaiting) {
                    return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.NO_SUCCESSOR,
                            "lease " + command.key() + " was not handed over to " + command.successor() + ": "
                                    + notWaiting.why() + "; nothing was written, the lease is still yours at revision "
                                    + command.revision()));
                }
                SuccessorCheck.Reply.Waiting yes = (SuccessorCheck.Reply.Waiting) reply;
                // Decided again from the read just remembered, now naming the yes the write answers.
                return writer.write(command.key(), false, rules(command, presented, Optional.of(yes.check())),
                                (write, written) -> (Handover) new Handover.HandedOver(
                                        ((LeaseWrite.Put) write).leaseAt(written.revision())))
                        .thenCompose(outcome -> presented.checked(writer, outcome))
                        .thenApply(outcome -> {
                            if (outcome instanceof Handover.HandedOver handed) {
                                // The successor first: its first moment as owner is the handover's gap.
                                yes.grant().handedOver(handed.lease());
                            }
                            return outcome;
                        });
            });
        });
    }

    private CallRules<Handover> rules(Command command, PresentedRevision<Handover> presented,
            Optional<HandoverCheck> check) {
        return presented.watching(state -> LeaseRules.handover(state, command.holder(), command.revision(),
                command.successor(), command.ttl(), check, writer.now()));
    }
}
