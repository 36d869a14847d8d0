package io.dagnats.leases.acceptance.harness;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The checker's own rules, without a service: where a window's end comes from, and
 * what a holder that ignores its own deadline leaves in its log.
 */
class OwnershipHistoryTest {

    private static final long MS = 1_000_000;

    @Test
    void aHolderStillGivingOutItsTenurePastItsOwnDeadlineFailsTheHistory() throws Exception {
        Tenure expired = new Tenure(new LeaseKey("stubborn-k"), new HolderId("stubborn"), new Fence(5), new Fence(5),
                System.nanoTime() - MS);
        List<String> lines = OwnershipLog.lines();
        OwnershipLog log = OwnershipLog.inMemory("stubborn-1", lines);
        try {
            log.watch("stubborn-k", "stubborn", () -> Optional.of(expired));
            Polling.until(Duration.ofSeconds(5), "a look past the deadline to be written", () -> List.copyOf(lines),
                    seen -> seen.stream().anyMatch(line -> line.contains(" late ")));
        } finally {
            log.close();
        }
        AssertionError unsafe = assertThrows(AssertionError.class, () -> OwnershipHistory.fromLines(lines).assertSafe());
        assertTrue(unsafe.getMessage().contains("past its own deadline"), unsafe.getMessage());
    }

    @Test
    void anEndTheHoldersLooksSawIsNotMovedBackToItsDeadline() {
        // Its looks saw it owning until 1 179.5 ms, 79.5 ms past its deadline; the next owner began at 1 150 ms.
        List<String> lines = List.of(
                at(1_000) + " k old old-1 own 5 5 " + at(1_100),
                at(1_180) + " k old old-1 free " + (at(1_179) + MS / 2),
                at(1_150) + " k new new-1 own 9 9 " + at(4_000));
        assertThrows(AssertionError.class, () -> OwnershipHistory.fromLines(lines).assertSafe());
    }

    @Test
    void whereTheLooksAreSilentTheHoldersOwnDeadlineEndsItsWindowAndTheSummarySaysSo() {
        // A 550 ms gap in its looks (a stopped process) with its deadline inside: it stopped then.
        List<String> lines = List.of(
                at(1_000) + " k old old-1 own 5 5 " + at(1_100),
                at(1_600) + " - - old-1 gap " + at(1_050),
                at(1_600) + " k old old-1 free " + at(1_050),
                at(1_200) + " k new new-1 own 9 9 " + at(4_000));
        String summary = OwnershipHistory.fromLines(lines).assertSafe();
        assertTrue(summary.contains("longest 550 ms") && summary.contains("1 window ends dated by the holder's deadline"),
                summary);
    }

    private static long at(long millis) {
        return millis * MS;
    }
}
