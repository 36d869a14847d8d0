package io.dagnats.leases.acceptance.harness;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A holder process starved or stopped between confirming a tenure and telling its listener
 * (sampler and holder thread alike get no CPU) while the previous owner, another process,
 * still believes: the start must be dated at the sampler's previous look, never near the
 * listener's call. Found by the review of issue 12 (review12d 22391e7) against a rule that
 * dated such starts 2 ms before the call, which hid this 20 ms overlap.
 */
class OwnershipLogStallTest {

    private static final String KEY = "review-slack-k";

    private static Tenure tenure(String holder, long fence) {
        return new Tenure(new LeaseKey(KEY), new HolderId(holder), new Fence(fence), new Fence(fence),
                System.nanoTime() + Duration.ofSeconds(60).toNanos());
    }

    /** Stands for a thread that gets no CPU (preempted, or a safepoint) for {@code millis}. */
    private static void offCpu(long millis) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (until - System.nanoTime() > 0) {
            LockSupport.parkNanos(until - System.nanoTime());
        }
    }

    @Test
    void anOverlapWhileTheNewHoldersProcessIsStarvedIsReported() throws Exception {
        List<String> lines = OwnershipLog.lines();
        OwnershipLog oldLog = OwnershipLog.inMemory("old-1", lines);
        OwnershipLog newLog = OwnershipLog.inMemory("new-1", lines);

        AtomicReference<Optional<Tenure>> oldBelief = new AtomicReference<>(Optional.of(tenure("old", 10)));
        oldLog.watch(KEY, "old", oldBelief::get);
        Polling.until(Duration.ofSeconds(5), "the old owner's belief logged", () -> List.copyOf(lines),
                seen -> seen.stream().anyMatch(line -> line.contains(" old old-1 own ")));

        AtomicReference<Optional<Tenure>> newBelief = new AtomicReference<>(Optional.empty());
        newLog.watch(KEY, "new", newBelief::get);
        // The new holder's process is starved from here: its sampler stops in the middle of a look.
        AtomicBoolean starved = new AtomicBoolean(true);
        CountDownLatch samplerStopped = new CountDownLatch(1);
        CountDownLatch cpuBack = new CountDownLatch(1);
        newLog.watch("review-slack-other", "new", () -> {
            if (starved.get()) {
                samplerStopped.countDown();
                try {
                    cpuBack.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            return Optional.empty();
        });
        if (!samplerStopped.await(5, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the new holder's sampler never looked");
        }

        // Ownership.confirm on the new holder's keeper thread, which is then preempted before
        // LeaseKeeper.onRenewed reaches tell(becameOwner) -> shardAssigned -> began.
        Tenure successor = tenure("new", 20);
        long confirmedAt = System.nanoTime();
        newBelief.set(Optional.of(successor));
        offCpu(20);
        // Meanwhile the old holder, in a process that does get CPU, stops believing.
        oldBelief.set(Optional.empty());
        oldLog.ended(KEY, "old");
        long oldEndedAt = System.nanoTime();
        offCpu(10);
        // The keeper thread runs again and tells its listener.
        newLog.began(KEY, "new", successor);
        starved.set(false);
        cpuBack.countDown();
        newLog.close();
        oldLog.close();

        long overlapMillis = (oldEndedAt - confirmedAt) / 1_000_000;
        assertThrows(AssertionError.class, () -> OwnershipHistory.fromLines(lines).assertSafe(),
                "both believed for " + overlapMillis + " ms and the checker passed: " + lines);
    }
}
