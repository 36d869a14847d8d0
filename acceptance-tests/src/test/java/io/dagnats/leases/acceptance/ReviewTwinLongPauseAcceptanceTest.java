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
 * Review of 3436dc1 (twin detection): the same paused-old-process / restart pair as
 * {@link ReviewSameIdPausedHolderAcceptanceTest}, but the pause outlasts the TTL, as a
 * long GC, a SIGSTOP or a VM migration may: the key expires, and the restart (same holder
 * id) makes a NEW acquisition. The old process, on resuming, gets its renew answered lost,
 * and then a grant of an acquisition whose acquired_at is not the one it renewed, so
 * {@code keptByAnotherProcess} says no and it renews it: it takes the key from the restart,
 * which then finds the old process's write and stays off for good. Judged only from each
 * process's own {@link KeptLease#isOwner()} samples.
 */
class ReviewTwinLongPauseAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final String HOLDER = "review-twin-long-pause";

    @Test
    void anOldProcessPausedPastTheTtlDoesNotTakeTheKeyFromItsRestart() throws Exception {
        String key = "review-twin-long-pause";
        ScheduledExecutorService pausable = Executors.newSingleThreadScheduledExecutor();
        try (Connection oldNats = Nats.connect(service.nats.url());
                Connection newNats = Nats.connect(service.nats.url());
                LeaseHolder old = LeaseHolder.builder(oldNats).holderId(HOLDER).scheduler(pausable).build()) {
            KeptLease oldLease = old.keep(key, TTL, OwnershipListener.NONE);
            Polling.until(Duration.ofSeconds(20), "the old process to own", oldLease::isOwner, owner -> owner);

            // The old process freezes for longer than the TTL: the server frees the key by its TTL.
            CountDownLatch wake = SchedulerPause.block(pausable);
            try {
                Polling.until(Duration.ofSeconds(20), "the key to expire while the old process is paused",
                        () -> client.owner(key).path("held").asBoolean(), held -> !held);
                // The restart (same fixed holder id) takes the free key: a new acquisition.
                try (LeaseHolder restarted = LeaseHolder.builder(newNats).holderId(HOLDER).build()) {
                    KeptLease newLease = restarted.keep(key, TTL, OwnershipListener.NONE);
                    Polling.until(Duration.ofSeconds(20), "the restarted process to own", newLease::isOwner,
                            owner -> owner);
                    // The restart works a while (a third of a TTL: at least one renewal of its own).
                    long settle = System.nanoTime() + TTL.dividedBy(2).toNanos();
                    while (System.nanoTime() < settle) {
                        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                    }
                    String acquiredByRestart = client.owner(key).path("acquired_at").asText();

                    wake.countDown();
                    long start = System.nanoTime();
                    long end = start + TTL.multipliedBy(3).toNanos();
                    long both = 0;
                    long samples = 0;
                    long overlapFrom = -1;
                    List<String> overlaps = new ArrayList<>();
                    List<String> handovers = new ArrayList<>();
                    boolean lastOld = oldLease.isOwner();
                    boolean lastNew = newLease.isOwner();
                    while (System.nanoTime() < end) {
                        boolean o = oldLease.isOwner();
                        boolean n = newLease.isOwner();
                        long now = System.nanoTime();
                        samples++;
                        if (o != lastOld || n != lastNew) {
                            handovers.add(((now - start) / 1_000_000) + "ms old=" + o + " new=" + n);
                            lastOld = o;
                            lastNew = n;
                        }
                        if (o && n) {
                            both++;
                            if (overlapFrom < 0) {
                                overlapFrom = now;
                            }
                        } else if (overlapFrom >= 0) {
                            overlaps.add(((overlapFrom - start) / 1_000_000) + "ms+" + ((now - overlapFrom) / 1_000_000)
                                    + "ms");
                            overlapFrom = -1;
                        }
                        java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                    }
                    String what = "restart's acquisition acquired_at " + acquiredByRestart + "; now on the server: "
                            + client.owner(key) + "; after the resume both believed they owned in " + both + " of "
                            + samples + " samples; overlaps " + overlaps + "; ownership changes " + handovers;
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
