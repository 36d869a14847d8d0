package io.dagnats.leases.acceptance.harness;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Tenure;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The checker reports an overlap a wrong deadline causes (issue 12 (d)). {@link OwnershipLog#began}
 * used to date a start no earlier than {@code deadline - TTL + margin}, the renew's send time
 * as the holder library computes deadlines. The checker so trusted the very arithmetic it is there to police: an error
 * in the deadline moves the old owner's window end ({@link OwnershipHistory} caps it at
 * the deadline) and the new owner's dated start by the same amount, so whenever the
 * sampler has not seen the new owner yet, the overlap that error causes is invisible.
 */
class OwnershipLogWrongDeadlineTest {

    /** Long, so its margin (700 ms) leaves a loaded machine time to play the scenario out. */
    private static final Duration TTL = Duration.ofSeconds(60);
    private static final long MARGIN = Tenure.safetyMargin(new LeaseTtl(TTL.toMillis())).toNanos();
    private static final String KEY = "review-log-k";

    /** A keeper with the margin's sign flipped: its deadlines run {@code 2 * MARGIN} past the safe ones. */
    private static Tenure buggyTenure(String holder, long fence, long renewSentAt) {
        return new Tenure(new LeaseKey(KEY), new HolderId(holder), new Fence(fence), new Fence(fence),
                renewSentAt + TTL.toNanos() + MARGIN);
    }

    @Test
    void anOverlapMadeByAWrongDeadlineIsReportedWhenTheSamplerHasNotSeenTheNewOwnerYet() throws Exception {
        List<String> lines = OwnershipLog.lines();
        // Both samplers are running before the scenario's clock starts: it has only MARGIN to play out.
        OwnershipLog oldLog = OwnershipLog.inMemory("old-1", lines);
        OwnershipLog newLog = OwnershipLog.inMemory("new-1", lines);
        long now = System.nanoTime();
        // The old owner last renewed one TTL ago; the server freed the key just now, but the buggy
        // deadline lets it believe until now + MARGIN. Its process pauses: its log stops here.
        Tenure old = buggyTenure("old", 10, now - TTL.toNanos());
        oldLog.watch(KEY, "old", () -> Optional.of(old));
        // Closing takes one last look, which samples the old owner's belief (a poll would wait 50 ms).
        oldLog.close();

        // The new owner's renew went out just now, right after the server freed the key, and
        // confirmed at once: it believes from now on, while the old one still believes.
        AtomicReference<Optional<Tenure>> newBelief = new AtomicReference<>(Optional.empty());
        newLog.watch(KEY, "new", newBelief::get);
        Tenure successor = buggyTenure("new", 20, now);
        // Its listener tells the log before the sampler's next look sees the tenure.
        newLog.began(KEY, "new", successor);
        newBelief.set(Optional.of(successor));
        newLog.close();

        long believedFrom = System.nanoTime();
        long oldBelievedUntil = old.deadlineNanos();
        if (believedFrom >= oldBelievedUntil) {
            throw new IllegalStateException("the test ran too slowly to make an overlap; rerun");
        }
        // Both believed between believedFrom and oldBelievedUntil: the checker must say so.
        assertThrows(AssertionError.class, () -> OwnershipHistory.fromLines(lines).assertSafe(),
                "an overlap of " + (oldBelievedUntil - believedFrom) / 1_000_000 + " ms passed: " + lines);
    }
}
