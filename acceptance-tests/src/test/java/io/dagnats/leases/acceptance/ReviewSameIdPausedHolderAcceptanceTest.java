package io.dagnats.leases.acceptance;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

/**
 * Review (edge 1): a process restarted under its own fixed holder id while the old
 * process is paused (a GC, SIGSTOP), not dead. The guide makes two processes with one
 * id one holder, so the restart takes the key over at once, and the old process wakes
 * still inside its own deadline, as any paused process may (fencing covers that
 * moment). What the holder library owes is that the moment ends at the first sign of
 * the other process and never comes back: before, the two took the key back from each
 * other every third of a TTL, for good, each believing it owned it 95 % of the time.
 * Judged only from each process's own {@link KeptLease#isOwner()} samples.
 */
class ReviewSameIdPausedHolderAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final String HOLDER = "review-same-id";

    @Test
    void aPausedOldProcessAndItsRestartedSuccessorNeverBothBelieveTheyOwn() throws Exception {
        String key = "review-same-id-paused";
        ScheduledExecutorService pausable = Executors.newSingleThreadScheduledExecutor();
        try (Connection oldNats = Nats.connect(service.nats.url());
                Connection newNats = Nats.connect(service.nats.url());
                LeaseHolder old = LeaseHolder.builder(oldNats).holderId(HOLDER).scheduler(pausable).build()) {
            KeptLease oldLease = old.keep(key, TTL, OwnershipListener.NONE);
            Polling.until(Duration.ofSeconds(20), "the old process to own", oldLease::isOwner, owner -> owner);

            // The old process freezes: its holder thread runs nothing (no renew, no deadline work).
            CountDownLatch wake = SchedulerPause.block(pausable);
            try (LeaseHolder restarted = LeaseHolder.builder(newNats).holderId(HOLDER).build()) {
                KeptLease newLease = restarted.keep(key, TTL, OwnershipListener.NONE);
                Polling.until(Duration.ofSeconds(20), "the restarted process to own", newLease::isOwner, owner -> owner);

                // The old process resumes. From now on sample both processes' own beliefs.
                wake.countDown();
                long start = System.nanoTime();
                long end = start + TTL.multipliedBy(3).toNanos();
                long both = 0;
                long samples = 0;
                long overlapFrom = -1;
                long longestOverlap = 0;
                List<String> overlaps = new ArrayList<>();
                while (System.nanoTime() < end) {
                    boolean o = oldLease.isOwner();
                    boolean n = newLease.isOwner();
                    long now = System.nanoTime();
                    samples++;
                    if (o && n) {
                        both++;
                        if (overlapFrom < 0) {
                            overlapFrom = now;
                        }
                    } else if (overlapFrom >= 0) {
                        long length = now - overlapFrom;
                        longestOverlap = Math.max(longestOverlap, length);
                        overlaps.add(((overlapFrom - start) / 1_000_000) + "ms+" + (length / 1_000_000) + "ms");
                        overlapFrom = -1;
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                }
                if (overlapFrom >= 0) {
                    overlaps.add(((overlapFrom - start) / 1_000_000) + "ms+(to end)");
                    longestOverlap = Math.max(longestOverlap, end - overlapFrom);
                }
                String what = "after the old process resumed, both processes believed they owned " + key
                        + " in " + both + " of " + samples + " samples; longest overlap "
                        + longestOverlap / 1_000_000 + " ms; overlaps (offset from resume + length): " + overlaps;
                assertTrue(overlaps.size() <= 1, "the overlap came back: " + what);
                assertTrue(overlaps.isEmpty() || overlaps.get(0).startsWith("0ms+")
                        || Integer.parseInt(overlaps.get(0).substring(0, overlaps.get(0).indexOf("ms"))) < 200,
                        "an overlap began after the resume: " + what);
                // At the latest, the old process's next renew (a third of a TTL) answers lost.
                assertTrue(longestOverlap < TTL.dividedBy(3).plusMillis(500).toNanos(), what);
                assertTrue(newLease.isOwner(), "the restarted process keeps the key");
                assertFalse(oldLease.isOwner(), "the old process stays off it");
            } finally {
                wake.countDown();
            }
        } finally {
            pausable.shutdownNow();
        }
    }
}
