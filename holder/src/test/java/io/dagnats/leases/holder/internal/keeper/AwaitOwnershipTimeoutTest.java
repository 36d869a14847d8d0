package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Tenure;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A timeout too long for a long of nanoseconds (about 292 years) is no error: awaitOwnership
 * waits as for the longest it can count, instead of throwing ArithmeticException from
 * {@link Duration#toNanos()} or, added to the clock, overflowing into a wait already over.
 */
class AwaitOwnershipTimeoutTest extends KeeperHarness {

    private static final Duration FOREVER = Duration.ofMillis(Long.MAX_VALUE);

    @Test
    void anOwnerAskedWithAHugeTimeoutGetsItsTenureAtOnce() throws InterruptedException {
        becomeOwner(5, 6);

        assertEquals(Optional.of(new Fence(6)), lease.awaitOwnership(FOREVER).map(Tenure::fence));
        assertEquals(Optional.of(new Fence(6)), lease.awaitOwnership(Duration.ofSeconds(Long.MAX_VALUE))
                .map(Tenure::fence));
    }

    @Test
    void aHugeNegativeTimeoutWaitsNotAtAll() throws InterruptedException {
        assertEquals(Optional.empty(), lease.awaitOwnership(Duration.ofMillis(Long.MIN_VALUE)));
        assertEquals(Optional.empty(), lease.awaitOwnership(Duration.ofNanos(Long.MIN_VALUE)));
    }

    @Test
    void aHugeTimeoutWaitsUntilOwnershipInsteadOfReturningAtOnce() throws Exception {
        CompletableFuture<Optional<Tenure>> awaited = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                awaited.complete(lease.awaitOwnership(FOREVER));
            } catch (InterruptedException | RuntimeException failed) {
                awaited.completeExceptionally(failed);
            }
        }, "awaiting-ownership");
        waiter.setDaemon(true);
        waiter.start();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!awaited.isDone() && waiter.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertFalse(awaited.isDone(), "returned before owning: " + awaited);

        becomeOwner(5, 6);
        Optional<Tenure> tenure = awaited.get(10, TimeUnit.SECONDS);
        assertTrue(tenure.isPresent(), "waited until the keeper owned the key");
        assertEquals(new Fence(6), tenure.get().fence());
    }
}
