package io.dagnats.leases.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the strategies order candidates: versions as dotted numbers, priorities, ties by wait. */
class SuccessionTest {

    private static Candidate candidate(String holder, int priority, String version, long waitedSeconds) {
        return new Candidate(new HolderId(holder), new Incarnation(holder + "-run"), priority, version,
                Duration.ofSeconds(waitedSeconds), false);
    }

    @Test
    void versionsCompareAsDottedNumbersAndOtherwiseAsText() {
        assertTrue(Succession.compareVersions("1.9", "1.10") < 0, "1.9 before 1.10");
        assertTrue(Succession.compareVersions("2", "1.99.3") > 0, "2 after 1.99.3");
        assertEquals(0, Succession.compareVersions("1.0", "1"), "a missing part is 0");
        assertTrue(Succession.compareVersions("v1", "v2") < 0, "text as text");
    }

    @Test
    void oldestVersionFirstPutsTheOldestFirstAndBreaksTiesByTheLongestWait() {
        List<Candidate> sorted = List.of(candidate("a", 0, "2.0", 50), candidate("b", 0, "1.10", 5),
                candidate("c", 0, "1.9", 1), candidate("d", 0, "1.9", 30))
                .stream().sorted(Succession.oldestVersionFirst().order()).toList();

        assertEquals(List.of("d", "c", "b", "a"), sorted.stream().map(one -> one.holder().value()).toList());
    }

    @Test
    void highestPriorityFirstAndNoneByWaitOnly() {
        List<Candidate> candidates = List.of(candidate("a", 1, "1", 50), candidate("b", 7, "1", 5));

        assertEquals("b", candidates.stream().min(Succession.highestPriority().order()).orElseThrow().holder().value());
        assertEquals("a", candidates.stream().min(Succession.none().order()).orElseThrow().holder().value());
        assertEquals(false, Succession.none().yieldsWhileHealthy(), "none never yields while healthy");
    }
}
