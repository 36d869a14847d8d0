package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

/**
 * Twins: a process restarted under its own fixed holder id while the old process is paused
 * (a GC, SIGSTOP, a VM migration), not dead, and then resumed. The old process's pause is
 * staged by blocking its holder's only scheduler thread ({@link SchedulerPause}). Judged only
 * from each process's own {@link KeptLease#isOwner()} samples ({@link BeliefPair}).
 *
 * <p>These tests were written for ADR-033, where the server cannot tell the two processes
 * apart (one id, one holder) and the holder infers the other process from writes it did not
 * make.
 */
class HolderTwinAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);

    /**
     * The pause is shorter than the TTL. Under ADR-033 the restart takes the key over at once,
     * and the old process wakes still inside its own deadline, as any paused process may
     * (fencing covers that moment). What the holder library owes is that the moment ends at
     * the first sign of the other process and never comes back: before ADR-033, the two took
     * the key back from each other every third of a TTL, for good, each believing it owned it
     * 95 % of the time.
     */
    @Test
    void aResumedTwinStopsAtItsFirstSightOfTheOtherAndNeverOwnsAgain() throws Exception {
        String key = "twin-paused";
        String holder = "twin-paused";
        ScheduledExecutorService pausable = Executors.newSingleThreadScheduledExecutor();
        try (Connection oldNats = Nats.connect(service.nats.url());
                Connection newNats = Nats.connect(service.nats.url());
                LeaseHolder old = LeaseHolder.builder(oldNats).holderId(holder).scheduler(pausable).build()) {
            KeptLease oldLease = old.keep(key, TTL, OwnershipListener.NONE);
            Polling.until(Duration.ofSeconds(20), "the old process to own", oldLease::isOwner, owner -> owner);

            // The old process freezes: its holder thread runs nothing (no renew, no deadline work).
            CountDownLatch wake = SchedulerPause.block(pausable);
            try (LeaseHolder restarted = LeaseHolder.builder(newNats).holderId(holder).build()) {
                KeptLease newLease = restarted.keep(key, TTL, OwnershipListener.NONE);
                Polling.until(Duration.ofSeconds(20), "the restarted process to own", newLease::isOwner, owner -> owner);

                // The old process resumes. From now on sample both processes' own beliefs.
                wake.countDown();
                BeliefPair.Sampled sampled = BeliefPair.sample(oldLease, newLease, TTL.multipliedBy(3));
                String what = "after the old process resumed (first = old, second = restarted), " + sampled
                        + "; longest overlap " + sampled.longestOverlapNanos() / 1_000_000 + " ms";
                assertTrue(sampled.overlaps().size() <= 1, "the overlap came back: " + what);
                assertTrue(sampled.overlaps().isEmpty()
                        || sampled.overlaps().get(0).offsetNanos() < Duration.ofMillis(200).toNanos(),
                        "an overlap began after the resume: " + what);
                // At the latest, the old process's next renew (a third of a TTL) answers lost.
                assertTrue(sampled.longestOverlapNanos() < TTL.dividedBy(3).plusMillis(500).toNanos(), what);
                assertTrue(newLease.isOwner(), "the restarted process keeps the key");
                assertFalse(oldLease.isOwner(), "the old process stays off it");
            } finally {
                wake.countDown();
            }
        } finally {
            pausable.shutdownNow();
        }
    }

    /**
     * The pause outlasts the TTL: the key expires, and the restart makes a NEW acquisition.
     * Before (review of 3436dc1), the old process on resuming had its renew answered lost, then
     * was granted an acquisition whose acquired_at was not the one it renewed, so it renewed it
     * and took the key from the restart, which then found the old process's write and stayed
     * off for good.
     */
    @Test
    void aTwinPausedPastTheTtlDoesNotTakeTheKeyFromItsRestart() throws Exception {
        String key = "twin-long-pause";
        String holder = "twin-long-pause";
        ScheduledExecutorService pausable = Executors.newSingleThreadScheduledExecutor();
        try (Connection oldNats = Nats.connect(service.nats.url());
                Connection newNats = Nats.connect(service.nats.url());
                LeaseHolder old = LeaseHolder.builder(oldNats).holderId(holder).scheduler(pausable).build()) {
            KeptLease oldLease = old.keep(key, TTL, OwnershipListener.NONE);
            Polling.until(Duration.ofSeconds(20), "the old process to own", oldLease::isOwner, owner -> owner);

            // The old process freezes for longer than the TTL: the server frees the key by its TTL.
            CountDownLatch wake = SchedulerPause.block(pausable);
            try {
                Polling.until(Duration.ofSeconds(20), "the key to expire while the old process is paused",
                        () -> client.owner(key).path("held").asBoolean(), held -> !held);
                // The restart (same fixed holder id) takes the free key: a new acquisition.
                try (LeaseHolder restarted = LeaseHolder.builder(newNats).holderId(holder).build()) {
                    KeptLease newLease = restarted.keep(key, TTL, OwnershipListener.NONE);
                    long confirmedBy = Polling.until(Duration.ofSeconds(20), "the restarted process to own",
                            () -> newLease.fence().map(fence -> fence.revision()).orElse(0L), fence -> fence > 0);
                    // The restart works until one renewal of its own has raised its fence.
                    Polling.until(TTL, "a renewal by the restarted process",
                            () -> newLease.fence().map(fence -> fence.revision()).orElse(0L),
                            fence -> fence > confirmedBy);
                    String acquiredByRestart = client.owner(key).path("acquired_at").asText();

                    wake.countDown();
                    BeliefPair.Sampled sampled = BeliefPair.sample(oldLease, newLease, TTL.multipliedBy(3));
                    String what = "restart's acquisition acquired_at " + acquiredByRestart + "; now on the server: "
                            + client.owner(key) + "; after the resume (first = old, second = restarted) " + sampled;
                    assertTrue(newLease.isOwner(), "the restarted process keeps the key: " + what);
                    assertFalse(oldLease.isOwner(), "the old process stays off it: " + what);
                }
            } finally {
                wake.countDown();
            }
        } finally {
            pausable.shutdownNow();
        }
    }
}
