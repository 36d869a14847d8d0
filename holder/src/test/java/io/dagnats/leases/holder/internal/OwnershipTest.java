package io.dagnats.leases.holder.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The forward inbox's side of a tenure, without NATS: which forwards are admitted,
 * that ending ownership interrupts the runs it admitted, and that a release waits
 * for them.
 */
class OwnershipTest {

    private static final Duration HANDLER_DRAIN = Duration.ofSeconds(5);

    private final ManualScheduler clock = new ManualScheduler();
    private final Ownership ownership = new Ownership(clock);
    /** Start 5, fence 6, ten seconds left. */
    private final Tenure tenure = new Tenure(new LeaseKey("k"), new HolderId("me"), new Fence(5), new Fence(6),
            clock.nanoTime() + Duration.ofSeconds(10).toNanos());

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private static Optional<Fence> fence(long revision) {
        return Optional.of(new Fence(revision));
    }

    @Test
    void noForwardIsAdmittedBeforeATenureIsConfirmed() {
        assertTrue(ownership.admit(fence(5)).isEmpty());
        assertFalse(ownership.isOwner());
    }

    @Test
    void aForwardIsAdmittedUnderTheCurrentTenureWithAFenceAtOrAboveItsStart() {
        ownership.confirm(tenure);

        assertEquals(Optional.of(tenure), ownership.admit(fence(5)), "the tenure, not the caller's fence");
        assertEquals(Optional.of(tenure), ownership.admit(fence(6)));
        // Only a request naming this process's incarnation reaches the rule: a fence above the last
        // confirmed write is this process's own renew whose answer is still to come.
        assertEquals(Optional.of(tenure), ownership.admit(fence(9)));
        assertTrue(ownership.admit(fence(4)).isEmpty(), "a fence from before the tenure began is stale");
        assertTrue(ownership.admit(Optional.empty()).isEmpty(), "no fence is a bad fence");
    }

    @Test
    void aForwardAtOrBelowAFenceAnEarlierTenureHadIsRejectedAfterTheStoreWentBack() {
        // Confirmed up to 8 before; the store went back and this tenure began at 5 again, fenced 9.
        Tenure afterGoingBack = new Tenure(new LeaseKey("k"), new HolderId("me"), new Fence(5), new Fence(9),
                clock.nanoTime() + Duration.ofSeconds(10).toNanos());
        ownership.begin(afterGoingBack, fence(8));

        assertTrue(ownership.admit(fence(6)).isEmpty(), "6 is an earlier tenure's fence, handed out again");
        assertTrue(ownership.admit(fence(8)).isEmpty(), "at the floor is an earlier tenure's too");
        assertEquals(Optional.of(afterGoingBack), ownership.admit(fence(9)));
        ownership.confirm(new Tenure(new LeaseKey("k"), new HolderId("me"), new Fence(5), new Fence(10),
                clock.nanoTime() + Duration.ofSeconds(10).toNanos()));
        assertTrue(ownership.admit(fence(7)).isEmpty(), "a renewal keeps the tenure's floor");
    }

    @Test
    void noForwardIsAdmittedAtTheDeadlineEvenBeforeTheKeeperNotices() {
        ownership.confirm(tenure);
        clock.advance(Duration.ofNanos(tenure.deadlineNanos() - clock.nanoTime()));

        assertTrue(ownership.admit(fence(6)).isEmpty());
        assertTrue(ownership.admit(fence(6), new ForwardRun(Thread.currentThread())).isEmpty());
        assertFalse(ownership.isOwner());
        assertTrue(ownership.tenure().isEmpty());
    }

    @Test
    void noRunIsAdmittedOrTrackedOnceOwnershipHasEnded() throws Exception {
        ownership.confirm(tenure);
        ownership.end();

        assertTrue(ownership.admit(fence(6), new ForwardRun(Thread.currentThread())).isEmpty());
        assertFalse(Thread.currentThread().isInterrupted());
        ownership.runsEnded(HANDLER_DRAIN).get(1, TimeUnit.SECONDS);
    }

    @Test
    void endingOwnershipInterruptsTheRunsItAdmittedAndAReleaseWaitsForThemToBeServed() throws Exception {
        ownership.confirm(tenure);
        CountDownLatch admitted = new CountDownLatch(1);
        CountDownLatch serve = new CountDownLatch(1);
        CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
        Thread handler = new Thread(() -> {
            ForwardRun run = new ForwardRun(Thread.currentThread());
            if (ownership.admit(fence(6), run).isEmpty()) {
                interrupted.completeExceptionally(new AssertionError("not admitted"));
                return;
            }
            admitted.countDown();
            try {
                Thread.sleep(60_000);
                interrupted.complete(false);
            } catch (InterruptedException stop) {
                interrupted.complete(true);
            }
            try {
                serve.await(); // still cleaning up after the interrupt: the release must wait for this
            } catch (InterruptedException unexpected) {
                Thread.currentThread().interrupt();
            } finally {
                ownership.served(run);
            }
        }, "forward-handler");
        handler.setDaemon(true);
        handler.start();
        assertTrue(admitted.await(5, TimeUnit.SECONDS));

        ownership.end();

        assertTrue(interrupted.get(5, TimeUnit.SECONDS), "the handler was interrupted");
        assertFalse(ownership.isOwner());
        CompletableFuture<Void> released = ownership.runsEnded(HANDLER_DRAIN);
        assertFalse(released.isDone(), "the handler still runs");
        serve.countDown();
        released.get(5, TimeUnit.SECONDS);
        handler.join(5_000);
    }

    @Test
    void aReleaseGivesUpWaitingWhenAHandlerOutlastsTheDrain() {
        ownership.confirm(tenure);
        ForwardRun lingering = new ForwardRun(new Thread(() -> { }));
        assertTrue(ownership.admit(fence(6), lingering).isPresent());

        ExecutionException slow = assertThrows(ExecutionException.class,
                () -> ownership.runsEnded(Duration.ofMillis(20)).get(5, TimeUnit.SECONDS));
        assertInstanceOf(TimeoutException.class, slow.getCause());
    }

    @Test
    void anInterruptThatCameWhileTheRunEndedNeverReachesTheThreadsNextTask() {
        ownership.confirm(tenure);
        ForwardRun run = new ForwardRun(Thread.currentThread());
        assertTrue(ownership.admit(fence(6), run).isPresent());

        ownership.end(); // interrupts this thread, as the handler is returning anyway
        ownership.served(run);

        assertFalse(Thread.currentThread().isInterrupted(), "the pooled thread's next handler starts clean");
        run.interrupt();
        assertFalse(Thread.currentThread().isInterrupted(), "a run that has finished is never interrupted");
        assertTrue(ownership.runsEnded(HANDLER_DRAIN).isDone());
    }
}
