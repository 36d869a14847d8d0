package io.dagnats.leases.acceptance.handover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.Reliability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Choosing the leader among real processes (ADR-042), judged from each process's own record: a
 * rolling restart of five replicas from 1.0 to 2.0 under oldest-version-first keeps the leader on
 * 1.0 while any 1.0 replica is a candidate, and moves it only when the leading replica stops, each
 * time by a handover; a candidate flapping in and out moves no leader until it stays as long as
 * the brake asks.
 */
class RollingRestartAcceptanceTest {

    private static final Duration TTL = Duration.ofMillis(3_000);

    private CandidateProcesses processes;

    @BeforeEach
    void start() {
        processes = new CandidateProcesses(TTL);
    }

    @AfterEach
    void stop() throws Exception {
        processes.close();
    }

    @Test
    void aRollingRestartKeepsTheLeaderOnTheOldVersionAndMovesItOnlyByHandoverWhenTheLeaderStops() throws Exception {
        String key = "rolling-key";
        try (KeyEvents events = new KeyEvents(processes.service.client.connection(), key)) {
            List<Process> old = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                old.add(processes.candidate("old" + i, key, "0:1.0", "oldest", "500:5000"));
                if (i == 1) {
                    processes.ownerStartingWith(key, "old1-");
                }
            }
            List<String> leaders = new ArrayList<>();
            long lastOldStopped = 0;
            for (int i = 1; i <= 5; i++) {
                leaders.add(processes.service.client.owner(key).path("holder").asText());
                lastOldStopped = System.nanoTime();
                CandidateProcesses.terminate(old.get(i - 1));
                processes.candidate("new" + i, key, "0:2.0", "oldest", "500:5000");
                String stopped = "old" + i + "-";
                Polling.until(Duration.ofSeconds(30), "a leader other than the stopped " + stopped,
                        () -> processes.service.client.owner(key), reply -> reply.path("held").asBoolean()
                                && !reply.path("holder").asText().startsWith(stopped));
            }
            leaders.add(processes.ownerStartingWith(key, "new1-").path("holder").asText());
            processes.believesOwner("new1");

            OwnershipHistory history = processes.replicas.history();
            String summary = history.assertSafe();
            List<OwnershipHistory.Window> windows = history.windows().stream()
                    .sorted(Comparator.comparingLong(OwnershipHistory.Window::fromNanos)).toList();
            assertEquals(List.of("old1", "old2", "old3", "old4", "old5", "new1"),
                    windows.stream().map(window -> window.holder().substring(0, window.holder().indexOf('-'))).toList(),
                    "each 1.0 leader handed to the 1.0 replica waiting longest, the last to the 2.0 waiting longest");
            for (OwnershipHistory.Window window : windows) {
                assertTrue(!window.holder().startsWith("new") || window.fromNanos() > lastOldStopped,
                        "no 2.0 replica led while a 1.0 one was a candidate: " + window);
            }
            assertEquals(6, leaders.stream().distinct().count(), "the leader moved once per stop of the leader: " + leaders);
            List<String> moves = events.moves();
            assertEquals(5, moves.stream().filter(move -> move.startsWith("handed-over ")).count(), "moves: " + moves);
            assertTrue(moves.stream().noneMatch(move -> move.startsWith("released ") || move.startsWith("expired ")),
                    "never a release and a race: " + moves);
            Reliability.report("rolling restart of 5 replicas 1.0 -> 2.0, oldest version first", "6 leaders, 5 handovers; "
                    + summary);
        }
    }

    @Test
    void aFlappingCandidateMovesTheLeaderOnlyOnceItStaysForMinCandidacy() throws Exception {
        String key = "flapping-key";
        try (KeyEvents events = new KeyEvents(processes.service.client.connection(), key)) {
            processes.candidate("steady", key, "0:1.0", "priority", "4000:60000");
            processes.ownerStartingWith(key, "steady-");
            for (int flap = 0; flap < 3; flap++) {
                CandidateProcesses.terminate(processes.candidate("flapper", key, "9:1.0", "priority", "4000:60000"));
            }
            assertTrue(processes.service.client.owner(key).path("holder").asText().startsWith("steady-"),
                    "a better candidate present for less than minCandidacy moves no leader");
            processes.candidate("stayer", key, "9:1.0", "priority", "4000:60000");
            long stood = System.nanoTime(); // it stood just before it said so
            processes.ownerStartingWith(key, "stayer-");
            processes.believesOwner("stayer");
            long movedAfterMillis = (System.nanoTime() - stood) / 1_000_000;

            OwnershipHistory history = processes.replicas.history();
            history.assertSafe();
            assertEquals(List.of("steady", "stayer"), history.windows().stream()
                    .sorted(Comparator.comparingLong(OwnershipHistory.Window::fromNanos))
                    .map(window -> window.holder().substring(0, window.holder().indexOf('-'))).toList(),
                    "one move, to the candidate that stayed");
            assertTrue(movedAfterMillis >= 3_500, "not before it had waited minCandidacy (4 s, less the moment between"
                    + " standing and saying so): " + movedAfterMillis + " ms");
            List<String> moves = events.moves();
            assertEquals(1, moves.stream().filter(move -> move.startsWith("handed-over ")).count(), "moves: " + moves);
        }
    }
}
