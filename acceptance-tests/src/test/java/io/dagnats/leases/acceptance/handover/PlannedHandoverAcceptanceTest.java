package io.dagnats.leases.acceptance.handover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.Reliability;
import io.dagnats.leases.acceptance.harness.ReplicaProcesses;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Planned handovers between real processes (ADR-042), judged from each process's own record of
 * when it believed it owned the key ({@link OwnershipHistory}): a SIGTERM'd leader hands the lease
 * to the waiting candidate, never two owners, its leaderless gap measured; a handover to a
 * candidate that was kill -9'd just before leaves the leader owning.
 */
class PlannedHandoverAcceptanceTest {

    private static final Duration TTL = Duration.ofMillis(3_000);

    private CandidateProcesses processes;
    private ServiceFixture service;
    private ReplicaProcesses replicas;
    private List<String> told;

    @BeforeEach
    void start() {
        processes = new CandidateProcesses(TTL);
        service = processes.service;
        replicas = processes.replicas;
        told = processes.told;
    }

    @AfterEach
    void stop() throws Exception {
        processes.close();
    }

    private Process candidate(String name, String key, String candidacy, String succession, String brakes) {
        return processes.candidate(name, key, candidacy, succession, brakes);
    }

    private JsonNode ownerStartingWith(String key, String prefix) {
        return processes.ownerStartingWith(key, prefix);
    }

    private static void terminate(Process process) throws InterruptedException {
        CandidateProcesses.terminate(process);
    }

    @Test
    void aSigtermdLeaderHandsOverToTheWaitingCandidateWithNoTwoOwnersAndAShortGap() throws Exception {
        String key = "planned-key";
        List<Long> gapsMicros = new ArrayList<>();
        try (KeyEvents events = new KeyEvents(service.client.connection(), key)) {
            Process leader = candidate("r0", key, "0:1.0", "none", "10000:60000");
            ownerStartingWith(key, "r0-");
            for (int run = 1; run <= 4; run++) {
                String name = "r" + run;
                Process next = candidate(name, key, "0:1.0", "none", "10000:60000");
                terminate(leader);
                ownerStartingWith(key, name + "-");
                Polling.until(Duration.ofSeconds(10), name + " to believe it owns", () -> told,
                        lines -> lines.stream().anyMatch(line -> line.startsWith("owner " + name + "-")));
                leader = next;
            }
            OwnershipHistory history = replicas.history();
            String summary = history.assertSafe();
            List<OwnershipHistory.Window> windows = history.windows().stream()
                    .sorted(Comparator.comparingLong(OwnershipHistory.Window::fromNanos)).toList();
            assertEquals(5, windows.size(), "one belief window per replica: " + windows);
            for (int i = 1; i < windows.size(); i++) {
                gapsMicros.add((windows.get(i).fromNanos() - windows.get(i - 1).toNanos()) / 1_000);
                assertTrue(windows.get(i).tenureStart() > windows.get(i - 1).lastFence(),
                        "each successor's tenure starts above every fence of the one before: " + windows);
            }
            List<String> moves = events.moves();
            assertEquals(4, moves.stream().filter(move -> move.startsWith("handed-over ")).count(),
                    "each move a handover: " + moves);
            assertTrue(moves.stream().noneMatch(move -> move.startsWith("released ") || move.startsWith("expired ")),
                    "never a release and a race: " + moves);
            assertTrue(told.stream().filter(line -> line.startsWith("stopped HANDED_OVER")).count() == 4,
                    "every leader was told HANDED_OVER: " + told);
            List<Long> sorted = gapsMicros.stream().sorted().toList();
            Reliability.report("planned handover on SIGTERM (TTL " + TTL.toMillis() + " ms, 4 moves)",
                    "leaderless gap from each process's own record: median " + sorted.get(sorted.size() / 2) / 1000.0
                            + " ms, max " + sorted.get(sorted.size() - 1) / 1000.0 + " ms; " + summary);
        }
    }

    @Test
    void aHandoverToACandidateKilledJustBeforeLeavesTheLeaderOwning() throws Exception {
        String key = "vanished-key";
        try (KeyEvents events = new KeyEvents(service.client.connection(), key)) {
            // The leader yields to an older version that has waited 0 ms or more, at most once a minute.
            candidate("leader", key, "0:2.0", "oldest", "0:60000");
            JsonNode led = ownerStartingWith(key, "leader-");
            // Alive, it is no better than the leader (3.0): the leader keeps the key until its answer is replayed.
            Process ghost = candidate("ghost", key, "0:3.0", "none", "10000:60000");
            String ghostAnswer = GhostCandidate.answerOf(service.client.connection(), key, "ghost-");
            ReplicaProcesses.kill(ghost);
            try (GhostCandidate replay = GhostCandidate.replaying(service.client.connection(), key, ghostAnswer)) {
                Polling.until(Duration.ofSeconds(30), "the leader to step down for the ghost and own again", () -> told,
                        lines -> lines.stream().anyMatch(line -> line.startsWith("stopped PREFERRED_CANDIDATE leader-"))
                                && lines.stream().filter(line -> line.startsWith("owner leader-")).count() >= 2);
            }
            JsonNode after = ownerStartingWith(key, "leader-");
            assertEquals(led.path("holder"), after.path("holder"), "still the leader's lease");
            assertTrue(after.path("revision").asLong() > led.path("revision").asLong(), "renewed at a new fence");
            OwnershipHistory history = replicas.history();
            history.assertSafe();
            assertTrue(history.windows().stream().allMatch(window -> window.holder().startsWith("leader-")),
                    "nobody but the leader ever believed it owned the key: " + history.windows());
            assertTrue(events.moves().stream().noneMatch(move -> move.startsWith("handed-over ")),
                    "nothing was handed over: " + events.moves());
        }
    }
}
