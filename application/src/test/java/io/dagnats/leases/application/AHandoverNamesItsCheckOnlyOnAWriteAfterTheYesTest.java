package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Handover;
import io.dagnats.leases.domain.HandoverCheck;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Lost;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * From the review of ADR-047, the link its safety argument adds: a record names a check only if
 * dagnats wrote it after the successor's yes to that check, so the server's expiry, counted from that
 * write, ends after a deadline the successor counts from its yes. The successor's answer is held back
 * here while dagnats' clock moves on: nothing is written before it, the one write after it names the
 * check and is stamped after it (decided again from the remembered read, not taken from the decision
 * made before the answer); a handover that loses its race to the owner's renew names it on no record.
 */
class AHandoverNamesItsCheckOnlyOnAWriteAfterTheYesTest extends LeaseUseCasesFixture {

    private static final Claimant SUCCESSOR = Claimant.of(BOB, new Incarnation("b1"));
    private static final HandoverCheck CHECK = new HandoverCheck("c1");

    private final CompletableFuture<SuccessorCheck.Reply> answer = new CompletableFuture<>();
    private final HandOverLease handover = new HandOverLease(new LeaseWriter(store, known, clock),
            (key, successor, timeout) -> answer);

    /** Seen failing with HandOverLease's rules given the time the call began instead of deciding it. */
    @Test
    void nothingIsWrittenBeforeTheYesAndTheOneWriteAfterItNamesTheCheckAndIsStampedAfterIt() {
        Lease alices = granted(acquire(ALICE));
        CompletionStage<Handover> handing = handover.execute(command(alices));
        clock.advance(Duration.ofMillis(900)); // the successor takes its time to answer
        assertEquals(1, store.applied().size(), "nothing written before the answer");
        Instant yes = clock.instant();

        answer.complete(new SuccessorCheck.Reply.Waiting(CHECK, SuccessorCheck.Grant.NONE));

        assertInstanceOf(Handover.HandedOver.class, join(handing));
        LeaseWrite.Put written = assertInstanceOf(LeaseWrite.Put.class, store.applied().get(1));
        assertEquals(Optional.of(CHECK), written.check());
        assertFalse(written.writtenAt().isBefore(yes), "stamped " + written.writtenAt() + ", the yes came at " + yes);
        assertEquals(2, store.applied().size());
    }

    @Test
    void aHandoverThatLosesItsRaceToTheOwnersRenewNamesTheCheckOnNoRecord() {
        Lease alices = granted(acquire(ALICE));
        store.interleaveBeforeNextWrite(() -> join(renew.execute(
                new RenewLease.Command(KEY, ALICE, alices.revision(), Optional.empty()))));
        answer.complete(new SuccessorCheck.Reply.Waiting(CHECK, SuccessorCheck.Grant.NONE));

        assertInstanceOf(Lost.class, join(handover.execute(command(alices))));

        assertEquals(List.of(Optional.empty(), Optional.empty()), store.applied().stream()
                .map(write -> write instanceof LeaseWrite.Put put ? put.check() : Optional.empty()).toList(),
                "the acquire and the owner's renew; the handover's write never landed, decided again or not");
    }

    @Test
    void aSuccessorThatSaysNoGetsNoWriteAtAll() {
        Lease alices = granted(acquire(ALICE));
        answer.complete(new SuccessorCheck.Reply.NotWaiting("it does not wait"));

        CompletionStage<Handover> handing = handover.execute(command(alices));

        assertTrue(handing.toCompletableFuture().isCompletedExceptionally(), "no_successor: " + handing);
        assertEquals(1, store.applied().size(), "only the acquire");
    }

    private static HandOverLease.Command command(Lease lease) {
        return new HandOverLease.Command(KEY, lease.claimant(), lease.revision(), SUCCESSOR, Optional.empty());
    }
}
